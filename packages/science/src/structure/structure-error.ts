import { ScienceError, type ScienceErrorCode } from "../science-error.ts";

/**
 * The structure-based tools' one error class (ARCHITECTURE.md convention 6). Only setup problems
 * throw (a receptor the tools cannot prepare, a box that is not one); a compound that fails to prepare or
 * dock is a typed `unassessed` result, never an exception, so one compound never costs the run.
 */
export type StructureErrorCode = Extract<
  ScienceErrorCode,
  "STRUCTURE_RECEPTOR_PREPARATION_FAILED" | "STRUCTURE_BOX_INVALID" | "STRUCTURE_DOCKING_BATCH_MIXED"
>;

export class StructureError extends ScienceError<StructureErrorCode> {
  constructor(code: StructureErrorCode, message: string) {
    super(code, `${code}: ${message}`);
  }
}
