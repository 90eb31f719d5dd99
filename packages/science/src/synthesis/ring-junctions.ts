import type { MoleculeGraph } from "./molecule-graph.ts";

/**
 * Spiro and bridgehead atoms as RDKit's descriptors define them (RDKit documentation,
 * rdMolDescriptors.CalcNumSpiroAtoms / CalcNumBridgeheadAtoms), over RDKit's ring set:
 * a spiro atom is the one atom two rings share when they share exactly one atom; in two rings
 * sharing two or more bonds, the bridgeheads are the ends of the shared bonds (atoms touched by
 * exactly one of them).
 */
export function ringJunctions(graph: MoleculeGraph): { spiro: number; bridgehead: number } {
  const rings = graph.atomRings;
  // RDKit lists ring atoms in ring order: consecutive atoms (and last–first) are the ring's bonds.
  const bondRings = rings.map(
    (ring) => new Set(ring.map((atom, i) => bondKey(atom, ring[(i + 1) % ring.length] ?? atom))),
  );
  const spiro = new Set<number>();
  const bridgehead = new Set<number>();
  for (let i = 0; i < rings.length; i++) {
    const atomsI = new Set(rings[i]);
    for (let j = i + 1; j < rings.length; j++) {
      const sharedAtoms = (rings[j] ?? []).filter((atom) => atomsI.has(atom));
      if (sharedAtoms.length === 1) spiro.add(sharedAtoms[0] as number);
      const sharedBonds = [...(bondRings[j] ?? [])].filter((bond) => bondRings[i]?.has(bond));
      if (sharedBonds.length < 2) continue;
      const touches = new Map<number, number>();
      for (const bond of sharedBonds)
        for (const atom of bond.split("-").map(Number)) touches.set(atom, (touches.get(atom) ?? 0) + 1);
      for (const [atom, count] of touches) if (count === 1) bridgehead.add(atom);
    }
  }
  return { spiro: spiro.size, bridgehead: bridgehead.size };
}

function bondKey(a: number, b: number): string {
  return a < b ? `${a}-${b}` : `${b}-${a}`;
}
