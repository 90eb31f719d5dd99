import { readFile } from "node:fs/promises";
import {
  AMINO_ACIDS,
  createStructureReader,
  isInBox,
  ligandResidueAtoms,
  type NmaPocket,
  type ParsedStructure,
  parseLigandResidue,
  proteinChains,
  readSdfCoordinates,
  StructureParseError,
  structureFormatOf,
  type Vec3,
} from "@svc/science/structure";
import { RunnerError } from "../runner-error.ts";
import { resolveConfinedFile } from "./confine-path.ts";
import { readLines } from "./read-lines.ts";
import type { StructureEntry } from "./structure-entry.ts";

/** Largest box edge accepted, Å: AutoDock Vina's manual advises against search spaces past 30 Å × 30 Å × 30 Å; 40 Å leaves a margin. */
export const MAX_BOX_EDGE_ANGSTROM = 40;

/**
 * A reference ligand names a pocket only when some protein heavy atom is within this distance of
 * one of its heavy atoms (issue 37 item 2): a ligand in contact with its site has contacts at
 * 3–4 Å (hydrogen bonds ≈ 2.8–3.2 Å, van der Waals contacts ≈ 3.5–4 Å), so 5 Å allows loose ones.
 */
export const POCKET_CONTACT_ANGSTROM = 5;
/**
 * … and no protein heavy atom closer than this: shorter than any covalent bond a covalent ligand
 * makes to its residue (C–S ≈ 1.8 Å), so only a ligand placed inside the protein is refused.
 */
export const POCKET_OVERLAP_ANGSTROM = 1.2;

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
        pocket = { kind: "ligand", label: entry.ligand, atoms: atoms.map((atom) => atom.position) };
      }
      const nearest = nearestProteinDistance(structure, pocket?.kind === "ligand" ? pocket.atoms : []);
      if (nearest === null) refuse(".ligand", `reference ligand ${entry.ligand} has no heavy atom`);
      else if (nearest > POCKET_CONTACT_ANGSTROM)
        refuse(
          ".ligand",
          `reference ligand ${entry.ligand} is ${nearest.toFixed(1)} Å from the nearest protein heavy atom (more than ${POCKET_CONTACT_ANGSTROM} Å): it names no pocket; check that it is in the receptor's coordinate frame`,
        );
      else if (nearest < POCKET_OVERLAP_ANGSTROM)
        refuse(
          ".ligand",
          `reference ligand ${entry.ligand} overlaps the protein: a heavy atom ${nearest.toFixed(2)} Å from a protein heavy atom (less than ${POCKET_OVERLAP_ANGSTROM} Å)`,
        );
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
        (atom) => AMINO_ACIDS.has(atom.resName) && atom.element !== "H" && isInBox(box, atom.position),
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

/** The shortest distance, Å, from any of `points` to a protein heavy atom; null when there are no points. */
function nearestProteinDistance(structure: ParsedStructure, points: readonly Vec3[]): number | null {
  if (points.length === 0) return null;
  let best = Number.POSITIVE_INFINITY;
  for (const atom of structure.atoms) {
    if (!AMINO_ACIDS.has(atom.resName) || atom.element === "H") continue;
    const [ax, ay, az] = atom.position;
    for (const [x, y, z] of points) {
      const d = (ax - x) ** 2 + (ay - y) ** 2 + (az - z) ** 2;
      if (d < best) best = d;
    }
  }
  return Math.sqrt(best);
}

/** Reads a structure file line by line into the science package's parser. */
export async function readStructureFile(path: string, format: "pdb" | "mmcif"): Promise<ParsedStructure> {
  const reader = createStructureReader(format);
  for await (const line of readLines(path)) reader.push(line);
  return reader.finish();
}
