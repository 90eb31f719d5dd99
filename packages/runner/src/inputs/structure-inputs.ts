import { readFile } from "node:fs/promises";
import {
  AMINO_ACIDS,
  createStructureReader,
  isInBox,
  ligandResidueAtoms,
  type NmaPocket,
  type ParsedStructure,
  parseLigandResidue,
  pointOf,
  proteinChains,
  readSdfCoordinates,
  StructureParseError,
  structureFormatOf,
} from "@svc/science";
import { RunnerError } from "../runner-error.ts";
import { resolveConfinedFile } from "./confine-path.ts";
import { readLines } from "./read-lines.ts";
import type { StructureEntry } from "./structure-entry.ts";

/** Largest box edge accepted, Å: AutoDock Vina's manual advises against search spaces past 30 Å × 30 Å × 30 Å; 40 Å leaves a margin. */
export const MAX_BOX_EDGE_ANGSTROM = 40;

/** One staged structure, checked: where it is, what it holds and where its pocket is. */
export interface StagedStructure {
  readonly entry: StructureEntry;
  /** Position in `pdbs`, for messages (`pdbs[0]`). */
  readonly index: number;
  readonly path: string;
  readonly format: "pdb" | "mmcif";
  readonly chains: readonly string[];
  readonly pocket: NmaPocket | null;
}

/**
 * Checks every `pdbs` entry before anything is charged (issue 25 item 1): the file parses as PDB or
 * mmCIF, holds a protein chain, its reference ligand is there (a residue of the file, or an SD file
 * beside it that parses), and its box is not empty, at most {@link MAX_BOX_EDGE_ANGSTROM} Å on a side
 * and not outside the protein (at least one protein heavy atom inside it). Each refusal is
 * STRUCTURE_INVALID naming the file and the field.
 */
export async function stageStructures(
  sourcesDir: string,
  entries: readonly StructureEntry[],
): Promise<StagedStructure[]> {
  const staged: StagedStructure[] = [];
  for (const [index, entry] of entries.entries()) {
    const field = `pdbs[${index}]`;
    const path = await resolveConfinedFile(sourcesDir, entry.file, `${field}.file`);
    const refuse = (subfield: string, problem: string): never => {
      throw new RunnerError(
        "STRUCTURE_INVALID",
        `01_sources/${entry.file} (sources.json ${field}${subfield}): ${problem}`,
      );
    };
    const format = structureFormatOf(entry.file);
    let structure: ParsedStructure;
    try {
      structure = await readStructureFile(path, format);
    } catch (error) {
      if (!(error instanceof StructureParseError)) throw error;
      return refuse(".file", `does not parse as ${format === "pdb" ? "PDB" : "mmCIF"}: ${error.message}`);
    }
    const chains = proteinChains(structure);
    if (chains.length === 0) refuse(".file", "holds no protein chain (no Cα atom of an amino-acid residue)");
    let pocket: NmaPocket | null = null;
    if (entry.ligand !== null) {
      if (/\.(sdf|sd|mol)$/i.test(entry.ligand)) {
        const ligandPath = await resolveConfinedFile(sourcesDir, entry.ligand, `${field}.ligand`);
        try {
          pocket = {
            kind: "ligand",
            label: entry.ligand,
            atoms: readSdfCoordinates(await readFile(ligandPath, "utf8")),
          };
        } catch (error) {
          if (!(error instanceof StructureParseError)) throw error;
          refuse(".ligand", `reference ligand file ${entry.ligand} does not parse: ${error.message}`);
        }
      } else {
        const residue = parseLigandResidue(entry.ligand);
        if (residue === null) {
          return refuse(
            ".ligand",
            `"${entry.ligand}" is neither RES:CHAIN:NUM (e.g. STI:A:201) nor an .sdf file`,
          );
        }
        const atoms = ligandResidueAtoms(structure, residue);
        if (atoms.length === 0) refuse(".ligand", `reference ligand ${entry.ligand} is not in the file`);
        pocket = { kind: "ligand", label: entry.ligand, atoms: atoms.map(pointOf) };
      }
    }
    if (entry.box !== null) {
      const { box } = entry;
      if (box.size.some((edge) => edge <= 0))
        refuse(".box.size", `the box is empty (size ${box.size.join(", ")} Å)`);
      if (box.size.some((edge) => edge > MAX_BOX_EDGE_ANGSTROM)) {
        refuse(
          ".box.size",
          `the box is larger than ${MAX_BOX_EDGE_ANGSTROM} Å on a side (size ${box.size.join(", ")} Å)`,
        );
      }
      const proteinInside = structure.atoms.some(
        (atom) => AMINO_ACIDS.has(atom.resName) && atom.element !== "H" && isInBox(box, pointOf(atom)),
      );
      if (!proteinInside) {
        refuse(
          ".box.center",
          `the box is outside the protein: no protein atom lies inside it (centre ${box.center.join(", ")} Å)`,
        );
      }
      pocket = { kind: "box", box };
    }
    staged.push({ entry, index, path, format, chains, pocket });
  }
  return staged;
}

/** Reads a structure file line by line into the science package's parser. */
export async function readStructureFile(path: string, format: "pdb" | "mmcif"): Promise<ParsedStructure> {
  const reader = createStructureReader(format);
  for await (const line of readLines(path)) reader.push(line);
  return reader.finish();
}
