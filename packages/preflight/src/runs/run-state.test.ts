import assert from "node:assert/strict";
import { test } from "node:test";
import type { JobSummary, PodSummary } from "../kube/kube-gateway.ts";
import { deriveRunState, type RunOutputFacts } from "./run-state.ts";

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
const outputs = (patch: Partial<RunOutputFacts> = {}): RunOutputFacts => ({
  sealed: false,
  preSealed: false,
  hasSummary: false,
  createdAt: "2026-11-23T10:00:00Z",
  ...patch,
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
