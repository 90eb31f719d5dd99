/**
 * A 3D point or vector in Å: the one coordinate type of the structure code (atoms, boxes, Cα nodes,
 * interaction geometry), so a position read from a PDB, an SD file or a pose passes between them as is.
 */
export type Vec3 = readonly [number, number, number];
