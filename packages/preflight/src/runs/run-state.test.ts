import assert from "node:assert/strict";
import { test } from "node:test";
import { NO_RUN_COUNTS, type RunStatus } from "@svc/core";
import type { JobSummary, PodSummary } from "../kube/kube-gateway.ts";
import { deriveRunState, type RunOutputFacts, reportRunState } from "./run-state.ts";

const job = (patch: Partial<JobSummary> = {}): JobSummary => ({
  name: "svc-run-a-1234abcd",
  namespace: "svc",
  labels: {},
  annotations: {},
  creationTimestamp: "2026-11-23T10:00:00Z",
  startTime: null,
  completionTime: null,
  active: 1,
  ready: 0,
  succeeded: 0,
  failed: 0,
  conditions: [],
  ...patch,
});
/** A folder's facts as readRunOutputFacts gives them: which seal files it holds, and the summary. */
const outputs = (
  patch: { sealed?: boolean; sealId?: string; preSealed?: boolean; hasSummary?: boolean } = {},
): RunOutputFacts => ({
  seal: {
    files: [],
    missing: patch.sealed ? [] : ["seal/seal.json", "seal/seal.sig", "seal/seal.svg"],
    sealId: patch.sealId ?? null,
    presealed: patch.preSealed ?? false,
  },
  hasSummary: patch.hasSummary ?? false,
  createdAt: "2026-11-23T10:00:00Z",
});
const pod = (phase: string, waiting?: string): PodSummary => ({
  name: "p",
  phase,
  startTime: null,
  labels: {},
  containers: [
    {
      name: "runner",
      image: "i",
      ready: false,
      restarts: 0,
      state: waiting ? { kind: "waiting", reason: waiting } : { kind: "running" },
    },
  ],
});

test("a failed Job is failed even when its folder holds a seal", () => {
  const failed = job({
    active: 0,
    failed: 1,
    conditions: [{ type: "Failed", status: "True", reason: "DeadlineExceeded" }],
  });
  const state = deriveRunState(failed, [], outputs({ sealed: true }));
  assert.equal(state.state, "failed");
  assert.match(state.reason, /DeadlineExceeded/);
});

test("seal files decide sealed, then pre-sealed, before the Job's progress", () => {
  assert.equal(deriveRunState(job(), [], outputs({ sealed: true, preSealed: true })).state, "sealed");
  assert.equal(deriveRunState(job(), [], outputs({ preSealed: true })).state, "pre-sealed");
  assert.equal(deriveRunState(null, null, outputs({ preSealed: true })).state, "pre-sealed");
});

test("a Job is succeeded when complete, running with a running pod, pending otherwise with the waiting reason", () => {
  const complete = job({ active: 0, succeeded: 1, conditions: [{ type: "Complete", status: "True" }] });
  assert.equal(deriveRunState(complete, [], null).state, "succeeded");
  assert.equal(deriveRunState(job(), [pod("Running")], null).state, "running");
  const pending = deriveRunState(job(), [pod("Pending", "ImagePullBackOff")], null);
  assert.equal(pending.state, "pending");
  assert.match(pending.reason, /ImagePullBackOff/);
});

test("without a Job, a summary without a seal is succeeded and anything less is pending", () => {
  assert.equal(deriveRunState(null, null, outputs({ hasSummary: true })).state, "succeeded");
  assert.equal(deriveRunState(null, null, outputs()).state, "pending");
});

const record = (patch: Partial<RunStatus> = {}): RunStatus => ({
  schema: "svc.run-status/v1",
  run_id: "run-a",
  project_id: "demo",
  state: "running",
  stage: "analyse",
  counts: { ...NO_RUN_COUNTS },
  seal: { status: "none", reason: null, seal_id: null },
  exit_code: null,
  reason: null,
  started_at: "2026-11-23T10:00:00Z",
  updated_at: "2026-11-23T10:05:00Z",
  ...patch,
});

test("a run with a status record reports it, not files: a summary and no Job is not 'succeeded' when the record says failed", () => {
  const failed = reportRunState(
    record({ state: "failed", stage: "write", exit_code: 1, reason: "INTERNAL: disk full" }),
    { job: null, pods: null, outputs: outputs({ hasSummary: true }), kubernetes: true },
  );
  assert.equal(failed.state, "failed");
  assert.equal(failed.derived, false);
  assert.equal(failed.stage, "write");
  assert.equal(failed.exitCode, 1);
  assert.match(failed.reason, /disk full/);
  const interrupted = reportRunState(
    record({ state: "interrupted", exit_code: 75, reason: "INTERRUPTED: SIGTERM" }),
    {
      job: null,
      pods: null,
      outputs: outputs({ hasSummary: true }),
      kubernetes: true,
    },
  );
  assert.equal(interrupted.state, "interrupted");
});

const sealedRecord = (sealId: string | null = "seal_x") =>
  record({
    state: "succeeded",
    stage: "seal",
    exit_code: 0,
    seal: { status: "sealed", reason: null, seal_id: sealId },
  });

test("a record's seal status decides sealed and pre-sealed", () => {
  const at = { job: null, pods: null, outputs: null, kubernetes: true };
  const sealed = reportRunState(sealedRecord(), {
    ...at,
    outputs: outputs({ sealed: true, sealId: "seal_x", hasSummary: true }),
  });
  assert.equal(sealed.state, "sealed");
  assert.equal(sealed.sealStatus, "sealed");
  const pending = reportRunState(
    record({
      state: "succeeded",
      stage: "seal",
      exit_code: 10,
      seal: { status: "pending_online_verification", reason: "run_complete_unreachable", seal_id: null },
    }),
    at,
  );
  assert.equal(pending.state, "pre-sealed");
  assert.equal(pending.sealStatus, "pending_online_verification", "the record's own word");
});

test("a record saying running is running while its Job lives, and interrupted once the Job is gone or ended", () => {
  const alive = reportRunState(record(), {
    job: job(),
    pods: [pod("Running")],
    outputs: null,
    kubernetes: true,
  });
  assert.equal(alive.state, "running");
  assert.equal(alive.stage, "analyse");
  const gone = reportRunState(record(), { job: null, pods: null, outputs: null, kubernetes: true });
  assert.equal(gone.state, "interrupted");
  assert.match(gone.reason, /Job is gone/);
  const ended = job({
    active: 0,
    failed: 1,
    conditions: [{ type: "Failed", status: "True", reason: "BackoffLimitExceeded" }],
  });
  const killed = reportRunState(record(), { job: ended, pods: [], outputs: null, kubernetes: true });
  assert.equal(killed.state, "interrupted");
  assert.match(killed.reason, /BackoffLimitExceeded/);
  const unknown = reportRunState(record(), { job: null, pods: null, outputs: null, kubernetes: false });
  assert.equal(unknown.state, "running");
  assert.match(unknown.reason, /no Kubernetes/);
});

test("a run without a record gets the derived state, labelled derived", () => {
  const derived = reportRunState(null, {
    job: null,
    pods: null,
    outputs: outputs({ sealed: true }),
    kubernetes: true,
  });
  assert.equal(derived.state, "sealed");
  assert.equal(derived.derived, true);
  assert.equal(derived.stage, null);
});

// issue 38 item 5: the record is the runner's word beside the folder, never above it
test("a record saying sealed whose folder lacks its seal files is seal-missing, naming them", () => {
  const state = reportRunState(sealedRecord(), {
    job: null,
    pods: null,
    outputs: outputs({ hasSummary: true }),
    kubernetes: true,
  });
  assert.equal(state.state, "seal-missing");
  assert.equal(state.sealStatus, "none");
  assert.match(state.reason, /seal_x.*lacks seal\/seal\.json, seal\/seal\.sig, seal\/seal\.svg/);
});

test("a record saying sealed with no run folder at all is seal-missing", () => {
  const state = reportRunState(sealedRecord(), { job: null, pods: null, outputs: null, kubernetes: true });
  assert.equal(state.state, "seal-missing");
  assert.equal(state.sealStatus, "none");
  assert.match(state.reason, /no folder/);
});

test("a record saying sealed whose folder holds only a pre-seal is seal-missing, its seal status pending_online_verification", () => {
  const state = reportRunState(sealedRecord(), {
    job: null,
    pods: null,
    outputs: outputs({ preSealed: true }),
    kubernetes: true,
  });
  assert.equal(state.state, "seal-missing");
  assert.equal(state.sealStatus, "pending_online_verification");
});

test("a record saying sealed whose seal.json names another seal, or none, is seal-mismatch", () => {
  const at = { job: null, pods: null, kubernetes: true };
  const other = reportRunState(sealedRecord(), {
    ...at,
    outputs: outputs({ sealed: true, sealId: "seal_y" }),
  });
  assert.equal(other.state, "seal-mismatch");
  assert.equal(other.sealStatus, "none");
  assert.match(other.reason, /seal_x.*names seal_y/);
  const unreadable = reportRunState(sealedRecord(), { ...at, outputs: outputs({ sealed: true }) });
  assert.equal(unreadable.state, "seal-mismatch");
  assert.match(unreadable.reason, /no readable seal id/);
  const unnamed = reportRunState(sealedRecord(null), {
    ...at,
    outputs: outputs({ sealed: true, sealId: "seal_x" }),
  });
  assert.equal(unnamed.state, "seal-mismatch");
});
