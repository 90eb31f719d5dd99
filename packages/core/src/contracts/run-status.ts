import { z } from "zod";
import { RUN_FILES } from "../run-folder/run-files.ts";
import { PRESEAL_REASONS } from "../seal/seal-payload.ts";
import { projectIdSchema, runIdSchema } from "./run-id.ts";

// docs/contracts/run-status.md (issue 29 item 3, ARCHITECTURE.md convention 11): the runner says
// where a run stands at every stage boundary, and preflight and the CLI read it instead of
// guessing from which output files exist.

/** The stages of a run, in the order the runner enters them (runner README, "Order of a run"). */
export const RUN_STAGES = ["plan", "validate", "charge", "structure", "analyse", "write", "seal"] as const;

export type RunStage = (typeof RUN_STAGES)[number];

/**
 * `running` until the runner records an end: `succeeded` (outputs written and sealed or
 * pre-sealed: `seal.status` says which), `failed` (an error; `exit_code` and `reason` say which),
 * `interrupted` (SIGTERM/SIGINT, exit 75). A record left at `running` by a process that is gone
 * (SIGKILL, a node lost) is read as interrupted by whoever knows the process is gone (preflight,
 * from the run's Job).
 */
export const RUN_STATUS_STATES = ["running", "succeeded", "failed", "interrupted"] as const;

export type RunStatusState = (typeof RUN_STATUS_STATES)[number];

const count = z.number().int().nonnegative().nullable();

/** What the run has counted so far; null until the stage that counts it has run. */
export const runStatusCountsSchema = z.object({
  rows: count.describe("portfolio rows"),
  rows_ok: count.describe("rows RDKit parsed within the limits"),
  rows_invalid: count.describe("rows that did not parse"),
  rows_unassessed: count.describe("rows over the size limits or the time budget"),
  compounds: count.describe("compounds analysed"),
  modules_executed: count,
  modules_failed: count,
});

export type RunStatusCounts = z.infer<typeof runStatusCountsSchema>;

/**
 * The one seal-state vocabulary (issue 41 item 1): the record's, which preflight's API and the CLI
 * use too. `pending_online_verification` is a pre-seal (run_complete not reached).
 */
export const RUN_SEAL_STATUSES = ["none", "sealed", "pending_online_verification"] as const;

export type RunSealStatus = (typeof RUN_SEAL_STATUSES)[number];

/** Where the seal stands: the files under `seal/` are the proof, this is their status line. */
export const runStatusSealSchema = z.object({
  status: z.enum(RUN_SEAL_STATUSES),
  reason: z.enum(PRESEAL_REASONS).nullable().describe("why a pre-seal was written instead of a seal"),
  seal_id: z.string().nullable(),
});

/**
 * The outputs a person fetches first, as the record lists them when the run ends with a seal or a
 * pre-seal (issue 41 item 1: consumers read the record with its outputs, as argo's artifact
 * repository answers from a workflow's status, instead of walking the folder): the report in its
 * three forms, the summary, the combined record and the manifest. The rest is in the folder listing.
 */
export const RUN_STATUS_OUTPUT_FILES = [
  RUN_FILES.reportHtml,
  RUN_FILES.reportPdf,
  RUN_FILES.reportCsv,
  RUN_FILES.reportSummaryCsv,
  RUN_FILES.summary,
  RUN_FILES.combined,
  RUN_FILES.manifest,
] as const;

/** One listed output: its bytes as hashed for the seal (or pre-seal) of the run. */
export const runStatusOutputSchema = z.object({
  path: z.enum(RUN_STATUS_OUTPUT_FILES).describe("relative to the run folder"),
  bytes: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});

export type RunStatusOutput = z.infer<typeof runStatusOutputSchema>;

/** `<output-root>/.run-status/<run_id>.json` (run-layout.ts `runStatusPath`). */
export const runStatusSchema = z.object({
  schema: z.literal("svc.run-status/v1"),
  run_id: runIdSchema,
  project_id: projectIdSchema,
  state: z.enum(RUN_STATUS_STATES),
  stage: z.enum(RUN_STAGES).describe("the stage the run last entered"),
  counts: runStatusCountsSchema,
  seal: runStatusSealSchema,
  exit_code: z.number().int().nullable().describe("null while running"),
  reason: z.string().nullable().describe("why it failed, was interrupted or was pre-sealed"),
  outputs: z
    .array(runStatusOutputSchema)
    .optional()
    .describe(
      "the RUN_STATUS_OUTPUT_FILES the run wrote, as hashed for its seal or pre-seal; absent until the run succeeded, and in records of runners before it",
    ),
  started_at: z.string().describe("RFC 3339 UTC instant, second precision"),
  updated_at: z.string().describe("RFC 3339 UTC instant, second precision"),
});

export type RunStatus = z.infer<typeof runStatusSchema>;

/** Counts with nothing counted yet. */
export const NO_RUN_COUNTS: RunStatusCounts = Object.freeze({
  rows: null,
  rows_ok: null,
  rows_invalid: null,
  rows_unassessed: null,
  compounds: null,
  modules_executed: null,
  modules_failed: null,
});

/** The record as read from disk, or null when it is not a run status record this version knows. */
export function parseRunStatus(value: unknown): RunStatus | null {
  const parsed = runStatusSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}
