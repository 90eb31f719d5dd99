import { StructureParseError } from "./structure-atom.ts";
import type { Vec3 } from "./vec3.ts";

/**
 * The heavy-atom coordinates of the first molecule of an SD file (CTfile V2000 atom block, or
 * V3000 `M  V30 BEGIN ATOM`), enough to place a reference ligand's pocket. Hydrogens are left
 * out, as a pocket is drawn around heavy atoms.
 */
export function readSdfCoordinates(text: string): Vec3[] {
  const lines = text.split(/\r?\n/);
  const counts = lines[3];
  if (counts === undefined) throw new StructureParseError(4, "no counts line");
  const points: Vec3[] = [];
  const keep = (element: string, x: number, y: number, z: number, line: number) => {
    if (![x, y, z].every(Number.isFinite))
      throw new StructureParseError(line, "atom coordinates are not numbers");
    if (element.toUpperCase() !== "H") points.push([x, y, z]);
  };
  if (/V3000/.test(counts)) {
    const begin = lines.findIndex((line) => line.startsWith("M  V30 BEGIN ATOM"));
    if (begin === -1) throw new StructureParseError(0, "V3000 file without an atom block");
    for (let at = begin + 1; at < lines.length && !(lines[at] ?? "").startsWith("M  V30 END ATOM"); at++) {
      const fields = (lines[at] ?? "").trim().split(/\s+/);
      // M V30 index type x y z aamap ...
      keep(fields[3] ?? "", Number(fields[4]), Number(fields[5]), Number(fields[6]), at + 1);
    }
  } else {
    const atomCount = Number(counts.slice(0, 3));
    if (!Number.isInteger(atomCount) || atomCount <= 0) {
      throw new StructureParseError(4, `counts line gives no atom count: "${counts.slice(0, 3)}"`);
    }
    for (let at = 4; at < 4 + atomCount; at++) {
      const line = lines[at];
      if (line === undefined) throw new StructureParseError(at + 1, "atom block shorter than its count");
      keep(
        line.slice(31, 34).trim(),
        Number(line.slice(0, 10)),
        Number(line.slice(10, 20)),
        Number(line.slice(20, 30)),
        at + 1,
      );
    }
  }
  if (points.length === 0) throw new StructureParseError(0, "the first molecule has no heavy atom");
  return points;
}
