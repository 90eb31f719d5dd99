import { type DockingResultFile, dockingResultSchema, RUN_FILES, readRunFolder } from "@svc/core";
import { RunnerError } from "../runner-error.ts";

/** results/molecular_docking.json, relative to the run folder (core's RUN_FILES). */
export const DOCKING_RESULT_FILE = RUN_FILES.dockingResult;

/**
 * The docking module's file through core's readRunFolder, checked against core's strict
 * dockingResultSchema (issue 39 item 3, issue 41 item 1): every reader (the report, report.csv, the
 * physics modules) sees the type the module writes its records in, so reading a field the module
 * does not write does not typecheck. Null when the run has no such file (docking not planned, or it
 * failed). The run wrote the file itself, so one that does not match its schema is the runner's own
 * fault (INTERNAL), named by its first mismatch.
 */
export async function readDockingResult(runDir: string): Promise<DockingResultFile | null> {
  try {
    return await readRunFolder(runDir).dockingResult();
  } catch (error) {
    throw new RunnerError("INTERNAL", (error as Error).message, { cause: error });
  }
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
