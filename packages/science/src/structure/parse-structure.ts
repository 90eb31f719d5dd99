import { MmcifReader } from "./parse-mmcif.ts";
import { PdbReader } from "./parse-pdb.ts";
import type { ParsedStructure } from "./structure-atom.ts";

export type StructureFormat = ParsedStructure["format"];

/**
 * The format of a staged structure file by its name: `.cif`/`.mmcif` are mmCIF, anything else PDB
 * (PDBQT is what receptor preparation writes, never a staged input).
 */
export function structureFormatOf(fileName: string): "pdb" | "mmcif" {
  return /\.(cif|mmcif)$/i.test(fileName) ? "mmcif" : "pdb";
}

/** A line-fed reader of any of the formats; `finish` throws StructureParseError when nothing usable was read. */
export interface StructureReader {
  push(line: string): void;
  finish(): ParsedStructure;
}

/** The one reader of structure files (PDB, PDBQT, mmCIF): one atom type, one alternate-location policy. */
export function createStructureReader(format: StructureFormat): StructureReader {
  return format === "mmcif" ? new MmcifReader() : new PdbReader(format);
}

/** Parses a whole structure text of the given format. */
export function parseStructure(text: string, format: StructureFormat): ParsedStructure {
  const reader = createStructureReader(format);
  for (const line of text.split(/\r?\n/)) reader.push(line);
  return reader.finish();
}
