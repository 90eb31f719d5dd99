import { ScienceError } from "../science-error.ts";
import { hashSequence } from "./boost-hash.ts";
import type { MoleculeGraph } from "./molecule-graph.ts";

/**
 * The isotope term of an atom's invariant: RDKit's `int(mass − average atomic weight)`, truncated
 * toward zero, from its periodic table (`data/isotope-mass-deltas.json`). Zero for atoms without
 * an isotope label; null when the table has no such isotope.
 */
export type MassDelta = (atomicNumber: number, isotope: number) => number | null;

/** An isotope label this build's table cannot turn into RDKit's invariant term. */
export class UnknownIsotopeError extends ScienceError<"SA_UNKNOWN_ISOTOPE"> {
  constructor(message: string) {
    super("SA_UNKNOWN_ISOTOPE", message);
  }
}

/**
 * RDKit's connectivity invariants (the ECFP-like atom invariants of Rogers & Hahn, J. Chem. Inf.
 * Model. 2010, 50, 742, as RDKit's `getConnectivityInvariants` defines them, documented in the
 * RDKit Book, "Morgan fingerprints"): the Boost sequence hash of [atomic number, degree counting
 * hydrogens, hydrogens (attached counts plus H atoms in the graph, e.g. deuterium), formal charge,
 * isotope mass delta] with a trailing 1 when the atom is in a ring.
 */
export function connectivityInvariants(graph: MoleculeGraph, massDelta: MassDelta): number[] {
  const neighbours = new Array<number>(graph.atoms.length).fill(0);
  const hydrogenNeighbours = new Array<number>(graph.atoms.length).fill(0);
  const isHydrogen = (atom: number) => (graph.atoms[atom]?.atomicNumber === 1 ? 1 : 0);
  for (const { begin, end } of graph.bonds) {
    neighbours[begin] = (neighbours[begin] ?? 0) + 1;
    neighbours[end] = (neighbours[end] ?? 0) + 1;
    hydrogenNeighbours[begin] = (hydrogenNeighbours[begin] ?? 0) + isHydrogen(end);
    hydrogenNeighbours[end] = (hydrogenNeighbours[end] ?? 0) + isHydrogen(begin);
  }
  const inRing = new Set(graph.atomRings.flat());
  return graph.atoms.map((atom, index) => {
    const delta = atom.isotope === 0 ? 0 : massDelta(atom.atomicNumber, atom.isotope);
    if (delta === null)
      throw new UnknownIsotopeError(
        `isotope ${atom.isotope} of element ${atom.atomicNumber} is not tabulated`,
      );
    const components = [
      atom.atomicNumber,
      (neighbours[index] ?? 0) + atom.hydrogens,
      atom.hydrogens + (hydrogenNeighbours[index] ?? 0),
      atom.charge,
      delta,
    ];
    if (inRing.has(index)) components.push(1);
    return hashSequence(components);
  });
}
