import { MmcifReader } from "./parse-mmcif.ts";
import { PdbReader } from "./parse-pdb.ts";
import type { ParsedStructure } from "./structure-atom.ts";

export type StructureFormat = "pdb" | "mmcif";

/** The format of a structure file by its name: `.cif`/`.mmcif` are mmCIF, anything else PDB. */
export function structureFormatOf(fileName: string): StructureFormat {
  return /\.(cif|mmcif)$/i.test(fileName) ? "mmcif" : "pdb";
}

/** A line-fed reader of either format; `finish` throws StructureParseError when nothing usable was read. */
export interface StructureReader {
  push(line: string): void;
  finish(): ParsedStructure;
}

export function createStructureReader(format: StructureFormat): StructureReader {
  return format === "mmcif" ? new MmcifReader() : new PdbReader();
}

/** Parses a whole structure text of the given format. */
export function parseStructure(text: string, format: StructureFormat): ParsedStructure {
  const reader = createStructureReader(format);
  for (const line of text.split(/\r?\n/)) reader.push(line);
  return reader.finish();
}
