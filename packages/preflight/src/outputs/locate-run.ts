import { ID_RULE, isProjectScopedOutput, isSafeId, outputRootOf, type StorageLayout } from "@svc/core";
import { PreflightError } from "../errors.ts";
import { resolveRunRoot } from "./safe-path.ts";

/** The query fields that name a run: `runId`, and `projectId` where the layout keeps runs per project. */
export const RUN_QUERY_FIELDS = ["runId", "projectId"] as const;

/**
 * Resolves a run's output directory under the storage layout (docs/contracts/storage-layout.md):
 * PVC `<output-root>/<runId>`, cloudstore `<mount>/<projectId>/results/<runId>`, where `projectId`
 * is then required. Throws INVALID_INPUT naming the field, or what {@link resolveRunRoot} throws.
 */
export async function locateRun(
  layout: StorageLayout,
  query: { runId: string; projectId?: string | undefined },
): Promise<string> {
  if (!isProjectScopedOutput(layout)) return await resolveRunRoot(outputRootOf(layout, ""), query.runId);
  const projectId = query.projectId;
  if (projectId === undefined || projectId === "")
    throw new PreflightError(
      "INVALID_INPUT",
      "projectId is required in cloudstore mode: runs live at <bucket>/<projectId>/results/<runId>/",
    );
  if (!isSafeId(projectId)) throw new PreflightError("INVALID_INPUT", `projectId ${ID_RULE}`);
  return await resolveRunRoot(outputRootOf(layout, projectId), query.runId);
}
