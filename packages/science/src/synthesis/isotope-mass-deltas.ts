import { readDataFile } from "../data/read-data-file.ts";
import type { MassDelta } from "./morgan-invariants.ts";

interface Table {
  readonly elements: Record<string, { readonly weight: number; readonly deltas: Record<string, number> }>;
}

let table: Table | null = null;

/**
 * RDKit's isotope term of the Morgan invariant (data/isotope-mass-deltas.json, RDKit's periodic
 * table): tabulated isotopes from the table; any other mass number stands in as the mass, as RDKit
 * does (`Atom::getMass`). A dummy atom (`*`, atomic number 0) has mass 0 whatever its label, so 0.
 * Null for an element the table does not hold (beyond 118).
 */
export const isotopeMassDelta: MassDelta = (atomicNumber, isotope) => {
  if (atomicNumber === 0) return 0;
  table ??= JSON.parse(readDataFile("isotope-mass-deltas.json")) as Table;
  const element = table.elements[String(atomicNumber)];
  if (element === undefined) return null;
  return element.deltas[String(isotope)] ?? Math.trunc(isotope - element.weight);
};
