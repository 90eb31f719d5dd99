import { z } from "zod";
import { CLAIM_STRENGTHS } from "./claim-strength.ts";
import { RUN_SEAL_STATUSES, RUN_STAGES, runStatusOutputSchema } from "./run-status.ts";

// The preflight HTTP contract as zod schemas: the service documents its responses with them
// (openapi.json) and `svc` validates what it receives with the same schemas, so the two cannot
// disagree silently. Field names are the service's (camelCase, spec §4.2).

/** Every error answer: `{ error: { code, message, request_id } }`. */
export const preflightErrorBodySchema = z.object({
  error: z.object({ code: z.string(), message: z.string(), request_id: z.string() }),
});

/** `GET /api/health`. */
export const healthResponseSchema = z.object({
  status: z.literal("ok"),
  service: z.string(),
  version: z.string(),
});

/** `POST /api/pipeline/run` answer (201). */
export const pipelineRunResponseSchema = z.object({
  jobName: z.string(),
  runId: z.string(),
  namespace: z.string(),
  projectId: z.string(),
  moduleId: z.string(),
  mode: z.enum(["standard", "deep"]),
  gpuDocking: z.boolean(),
  gpu: z.boolean(),
  image: z.string().optional(),
});

/** One entry of an output listing; directories end in `/`. */
export const outputEntrySchema = z.object({
  path: z.string(),
  type: z.enum(["file", "directory"]),
  size: z.number().int(),
  modified: z.string(),
});

/** `GET /api/outputs/list`. */
export const outputListResponseSchema = z.object({
  runId: z.string(),
  prefix: z.string().nullable(),
  wellKnown: z.record(z.string(), z.boolean()).nullable(),
  entries: z.array(outputEntrySchema),
  truncated: z.boolean(),
});

/** `GET /api/runs/check`. */
export const runCheckResponseSchema = z.object({
  runId: z.string(),
  runExists: z.boolean(),
  allPresent: z.boolean(),
  files: z.array(
    z.object({
      path: z.string(),
      exists: z.boolean(),
      size: z.number().int().nullable(),
      modified: z.string().nullable(),
    }),
  ),
});

/** A container of a pod as the pod listing and the run detail report it. */
export const containerSchema = z.object({
  name: z.string(),
  image: z.string(),
  ready: z.boolean(),
  restarts: z.number().int(),
  state: z.object({
    kind: z.enum(["waiting", "running", "terminated", "unknown"]),
    reason: z.string().optional(),
    exitCode: z.number().int().optional(),
    since: z.string().optional(),
  }),
});

/** A pod: Kubernetes phase (spec §3) and containers. */
export const podSchema = z.object({
  name: z.string(),
  phase: z.string(),
  startTime: z.string().nullable(),
  containers: z.array(containerSchema),
});

/** `GET /api/k8s/pods`. */
export const podListResponseSchema = z.object({
  namespace: z.string(),
  context: z.string().nullable(),
  selector: z.string().nullable(),
  pods: z.array(podSchema),
});

/**
 * Where a run stands, from its status record (docs/contracts/run-status.md), or derived from its
 * Job and output folder for a run without one (`derived: true`): `pending` (Job created, no pod
 * running; or outputs incomplete and no Job found), `running`, `succeeded` (finished, no seal),
 * `failed`, `interrupted` (stopped by a signal, or its record says running while its Job is gone
 * or ended), `sealed` (seal/seal.json, seal.sig and seal.svg), `pre-sealed` (seal/preseal.json:
 * run_complete did not seal yet, domain notes "Pre-seal"). A record saying sealed never outranks
 * the folder (issue 38 item 5): `seal-missing` (the record names a seal, the folder lacks its seal
 * files or the folder is gone), `seal-mismatch` (the folder's seal/seal.json names another seal,
 * or none).
 */
export const runStateSchema = z.enum([
  "pending",
  "running",
  "succeeded",
  "failed",
  "interrupted",
  "sealed",
  "pre-sealed",
  "seal-missing",
  "seal-mismatch",
]);

/** One run of `GET /api/runs`. */
export const runSummarySchema = z.object({
  runId: z.string(),
  state: runStateSchema,
  stateReason: z.string(),
  derived: z
    .boolean()
    .describe(
      "true: the run has no status record (an older runner) and the state is derived from files and the Job",
    ),
  stage: z.enum(RUN_STAGES).nullable().describe("the stage the status record names; null when derived"),
  exitCode: z
    .number()
    .int()
    .nullable()
    .describe("the runner's exit code, as recorded; null while running or derived"),
  projectId: z.string().nullable(),
  mode: z.string().nullable(),
  namespace: z.string().nullable(),
  jobName: z.string().nullable(),
  createdAt: z.string().nullable().describe("Job creation, else the output folder's creation"),
  finishedAt: z.string().nullable(),
  hasOutputs: z.boolean(),
  sealStatus: z
    .enum(RUN_SEAL_STATUSES)
    .describe("the status record's seal status (docs/contracts/run-status.md)"),
});

/** `GET /api/runs`: newest first. */
export const runListResponseSchema = z.object({
  runs: z.array(runSummarySchema),
  namespaces: z.array(z.string()).describe("namespaces whose Jobs were read"),
  kubernetes: z.boolean().describe("false when Kubernetes is not configured: runs come from outputs only"),
  truncated: z.boolean(),
});

/** A Job condition. */
export const jobConditionSchema = z.object({
  type: z.string(),
  status: z.string(),
  reason: z.string().optional(),
  message: z.string().optional(),
  lastTransitionTime: z.string().optional(),
});

/** The Job of a run. */
export const runJobSchema = z.object({
  name: z.string(),
  namespace: z.string(),
  creationTimestamp: z.string().nullable(),
  startTime: z.string().nullable(),
  completionTime: z.string().nullable(),
  active: z.number().int(),
  ready: z.number().int(),
  succeeded: z.number().int(),
  failed: z.number().int(),
  conditions: z.array(jobConditionSchema),
});

/** What `results/summary.json` says at a glance (null fields: the summary lacks them). */
export const runHighlightsSchema = z.object({
  categoryId: z.string().nullable(),
  claimStrength: z.enum(CLAIM_STRENGTHS).nullable(),
  coverageRatio: z.number().nullable(),
  compoundsTotal: z.number().nullable(),
  compoundsParsed: z.number().nullable(),
  missingProof: z.array(z.string()),
  generatedAt: z.string().nullable(),
});

/** `GET /api/runs/{runId}`. */
export const runDetailResponseSchema = runSummarySchema.extend({
  job: runJobSchema.nullable(),
  pods: z.array(podSchema),
  seal: z.object({
    status: z.enum(RUN_SEAL_STATUSES),
    sealId: z.string().nullable(),
    files: z.array(z.string()),
  }),
  highlights: runHighlightsSchema.nullable(),
  outputs: z
    .array(runStatusOutputSchema)
    .nullable()
    .describe(
      "the outputs the status record lists (path, bytes, sha256 as hashed for the seal); null without a folder, a record or a finished run",
    ),
});

export type RunState = z.infer<typeof runStateSchema>;
export type RunSummary = z.infer<typeof runSummarySchema>;
export type RunDetail = z.infer<typeof runDetailResponseSchema>;
export type RunHighlights = z.infer<typeof runHighlightsSchema>;
