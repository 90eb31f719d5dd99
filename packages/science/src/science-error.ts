// The one error shape, by its own entry: the package index (which the compound workers load) never loads core's main entry.
import { CodedError } from "@svc/core/coded-error";

/**
 * Every code the science library throws, with what it means (ARCHITECTURE.md convention 6; issue 41
 * item 3). The library has no edge of its own: the runner turns each into a refusal or a compound's
 * `unassessed` reason. The README's error table is kept in step by `science-error.test.ts`.
 */
export const SCIENCE_ERRORS = {
  STRUCTURE_UNPARSEABLE:
    "a PDB or mmCIF file cannot be read: the message names the line where reading stopped (0: the whole file)",
  STRUCTURE_RECEPTOR_PREPARATION_FAILED:
    "PDBFixer or Open Babel failed on a receptor, or is missing: no compound can be docked into it",
  STRUCTURE_BOX_INVALID: "a docking box that is empty, not finite, or over 40 Å a side",
  STRUCTURE_DOCKING_BATCH_MIXED:
    "dockBatch given requests with different receptors, boxes or profiles: a caller's bug, never a compound's",
  STRUCTURE_MODULE_MISUSED:
    "a structure module's run was given compounds it does not assess, or finished with a compound never merged: the scheduler's bug",
  STRUCTURE_DOCKING_RESULT_INVALID:
    "molecular_docking's results file does not match core's docking result schema (the message names the first mismatch): the run wrote it, so a build defect",
  LIGAND_UNPARSEABLE: "RDKit could not read or sanitize a posed ligand's molblock",
  LIGAND_NOT_3D: "a posed ligand's molblock has no 3D coordinates",
  SCAFFOLD_UNBUILDABLE:
    "RDKit refused the Murcko scaffold graph (an unusual valence): the compound gets no scaffold",
  SA_UNKNOWN_ISOTOPE:
    "an isotope label on an element beyond RDKit's periodic table: the parent is not scored",
  SA_UNSUPPORTED_BOND: "a bond type RDKit's JSON does not name: the parent is not scored",
  SA_FRAGMENT_TABLE_INVALID:
    "data/sa-fragment-scores.bin.gz is not the table the conversion script writes (a build defect)",
} as const;

export type ScienceErrorCode = keyof typeof SCIENCE_ERRORS;

/** The one base error of `@svc/science`: callers switch on `code` (or the subclass that fixes one), never on the message. */
export class ScienceError<Code extends ScienceErrorCode = ScienceErrorCode> extends CodedError<Code> {}
