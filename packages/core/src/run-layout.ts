import { posix } from "node:path";

// The one storage layout of inputs and run outputs (docs/contracts/storage-layout.md, spec §2.2,
// §2.3, §2.8 step 8). The job chart, the preflight chart, preflight's Jobs and outputs endpoints and
// the operator tools all derive their paths from these rules; test/charts/storage-layout.e2e.test.ts
// ties the charts and tools to this module. Pure: paths are derived, never touched.

/** Where the data volume (claim or bucket) is mounted in every pod (spec §2.3 default PVC layout). */
export const DATA_MOUNT_PATH = "/data";

/** The folder of a project that holds its inputs (spec §2.2). */
export const SOURCES_DIR = "01_sources";

/** The folder of a project that holds its runs in cloudstore mode (spec §2.8 step 8). */
export const CLOUDSTORE_RESULTS_DIR = "results";

/**
 * The folder of the output root that holds each run's status record (docs/contracts/run-status.md).
 * Beside the run folders, not in them: the record changes after sealing (a pre-seal completed
 * later, an end recorded), and everything inside `<run_id>/` is either sealed or refused as
 * uncovered by every released verifier (verify.sh included, whose bytes cannot change). A dot
 * name is outside the run-id grammar, so it is never taken for a run nor served as one.
 */
export const RUN_STATUS_DIR = ".run-status";

/**
 * Where the data lives. `pvc`: the claim `<job-release>-data` mounted at {@link DATA_MOUNT_PATH},
 * inputs and outputs under two roots inside it (defaults `/data/input`, `/data/output`).
 * `cloudstore`: a bucket mounted at `mountPath`; a project's inputs and runs both live under
 * `<bucket>/<project_id>/`.
 */
export type StorageLayout =
  | { readonly kind: "pvc"; readonly inputRoot: string; readonly outputRoot: string }
  | { readonly kind: "cloudstore"; readonly bucket: string; readonly mountPath: string };

/** The PVC layout with the documented defaults (spec §2.2, §2.3). */
export const DEFAULT_PVC_LAYOUT: StorageLayout = Object.freeze({
  kind: "pvc",
  inputRoot: `${DATA_MOUNT_PATH}/input`,
  outputRoot: `${DATA_MOUNT_PATH}/output`,
});

/** The input root: the runner reads `<input-root>/<project_id>/01_sources/` (spec §2.2). */
export function inputRootOf(layout: StorageLayout): string {
  return layout.kind === "pvc" ? trimSlash(layout.inputRoot) : trimSlash(layout.mountPath);
}

/**
 * The output root of a project's runs: the runner writes `<output-root>/<run_id>/` (spec §2.3).
 * PVC: one root for every project. Cloudstore: `<mount>/<project_id>/results` (spec §2.8 step 8).
 */
export function outputRootOf(layout: StorageLayout, projectId: string): string {
  if (layout.kind === "pvc") return trimSlash(layout.outputRoot);
  return posix.join(trimSlash(layout.mountPath), projectId, CLOUDSTORE_RESULTS_DIR);
}

/** `<input-root>/<project_id>/01_sources` (spec §2.2). */
export function projectSourcesDir(layout: StorageLayout, projectId: string): string {
  return posix.join(inputRootOf(layout), projectId, SOURCES_DIR);
}

/** `<output-root>/<run_id>` of one run (spec §2.3). */
export function runOutputDir(layout: StorageLayout, run: { projectId: string; runId: string }): string {
  return posix.join(outputRootOf(layout, run.projectId), run.runId);
}

/** `<output-root>/.run-status/<run_id>.json`: the run's status record (docs/contracts/run-status.md). */
export function runStatusPath(outputRoot: string, runId: string): string {
  return posix.join(trimSlash(outputRoot), RUN_STATUS_DIR, `${runId}.json`);
}

/** The status record of the run whose output folder is `runDir` (`<output-root>/<run_id>`). */
export function runStatusPathOfRunDir(runDir: string): string {
  const trimmed = trimSlash(runDir);
  return runStatusPath(posix.dirname(trimmed), posix.basename(trimmed));
}

/** True when finding a run's outputs needs its project id (cloudstore keeps runs per project). */
export function isProjectScopedOutput(layout: StorageLayout): boolean {
  return layout.kind === "cloudstore";
}

/** The runner's `SVC_INPUT_ROOT` and `SVC_OUTPUT_ROOT` for a project (docs/contracts/runner-env.md). */
export function runnerRootsEnv(
  layout: StorageLayout,
  projectId: string,
): { SVC_INPUT_ROOT: string; SVC_OUTPUT_ROOT: string } {
  return { SVC_INPUT_ROOT: inputRootOf(layout), SVC_OUTPUT_ROOT: outputRootOf(layout, projectId) };
}

/**
 * The claim of a job-chart release: `<release>-data`, the release cut to 58 characters without a
 * trailing `-` so the name stays a 63-character DNS label (manifest/chart `svc-job.claimName`).
 */
export function dataClaimName(release: string): string {
  return `${release.slice(0, 58).replace(/-+$/, "")}-data`;
}

function trimSlash(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, "") : path;
}
