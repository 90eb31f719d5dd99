import { runPath } from "@svc/core";

/** `results/<module>.json` of a structure module (written by the structure stage, read by the report). */
export function structureResultFile(moduleId: string): string {
  return runPath("moduleResult", { module: moduleId });
}
