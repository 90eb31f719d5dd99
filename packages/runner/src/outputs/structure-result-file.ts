import { join } from "node:path";

/** `results/<module>.json` of a structure module (written by the structure stage, read by the report). */
export function structureResultFile(moduleId: string): string {
  return join("results", `${moduleId}.json`);
}
