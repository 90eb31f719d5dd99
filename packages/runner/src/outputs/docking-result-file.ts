import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { type DockingResultFile, dockingResultSchema } from "@svc/core";
import { RunnerError } from "../runner-error.ts";
import { structureResultFile } from "./structure-result-file.ts";

/** results/molecular_docking.json, relative to the run folder. */
export const DOCKING_RESULT_FILE = structureResultFile("molecular_docking");

/**
 * The docking module's file, parsed with core's dockingResultSchema (issue 39 item 3): every reader
 * (the report, report.csv, the physics modules) sees the type the module writes its records in, so
 * reading a field the module does not write does not typecheck. Null when the run has no such file
 * (docking not planned, or it failed). The run wrote the file itself, so one that does not match its
 * schema is the runner's own fault (INTERNAL), named by its first mismatch.
 */
export async function readDockingResult(runDir: string): Promise<DockingResultFile | null> {
  let text: string;
  try {
    text = await readFile(join(runDir, DOCKING_RESULT_FILE), "utf8");
  } catch {
    return null;
  }
  return parseDockingResult(JSON.parse(text) as unknown);
}

/** {@link readDockingResult} of a file already read. */
export function parseDockingResult(file: unknown): DockingResultFile {
  const parsed = dockingResultSchema.safeParse(file);
  if (parsed.success) return parsed.data;
  const [issue] = parsed.error.issues;
  throw new RunnerError(
    "INTERNAL",
    `${DOCKING_RESULT_FILE} does not match its schema at ${issue?.path.join(".") || "the top"}: ${issue?.message ?? "invalid"}`,
  );
}
