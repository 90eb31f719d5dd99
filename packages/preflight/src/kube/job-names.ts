import { createHash, randomBytes } from "node:crypto";

const MAX_NAME = 63; // Job names become the pods' job-name label value: at most 63 characters.

/**
 * The pipeline Job name of a run id: a readable slug plus 8 hex of the run id's SHA-256, so
 * distinct run ids never share a name (`run_A` vs `run-a`) and the same run id always maps to the
 * same name, which is what makes a second launch of a run id a 409 AlreadyExists.
 */
export function pipelineJobName(runId: string): string {
  const hash = createHash("sha256").update(runId).digest("hex").slice(0, 8);
  const prefix = "svc-run-";
  const slug = runId
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, "-")
    .replace(/-+/g, "-")
    .slice(0, MAX_NAME - prefix.length - hash.length - 1)
    .replace(/^-+|-+$/g, "");
  return `${prefix}${slug === "" ? "" : `${slug}-`}${hash}`;
}

/** A fresh smoke Job name: module, UTC time and a random suffix. */
export function smokeJobName(moduleId: string, now: Date): string {
  const stamp = now.toISOString().replace(/[-:T]/g, "").slice(0, 14);
  const suffix = randomBytes(4).toString("hex").slice(0, 5);
  return `svc-smoke-${moduleId}-${stamp}-${suffix}`.slice(0, MAX_NAME);
}
