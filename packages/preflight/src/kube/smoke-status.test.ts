import assert from "node:assert/strict";
import { test } from "node:test";
import type { JobSummary } from "./kube-gateway.ts";
import { deriveSmokeVerification } from "./smoke-status.ts";

function job(name: string, created: string, patch: Partial<JobSummary> = {}): JobSummary {
  return {
    name,
    namespace: "svc",
    labels: {},
    annotations: {},
    creationTimestamp: created,
    startTime: null,
    completionTime: null,
    active: 0,
    ready: 0,
    succeeded: 0,
    failed: 0,
    conditions: [],
    ...patch,
  };
}

test("no Job is NOT_RUN", () => {
  assert.deepEqual(deriveSmokeVerification([]), {
    state: "NOT_RUN",
    reason: "no smoke Job found in the namespace",
    time: null,
    jobName: null,
  });
});

test("only the newest Job counts: an old success does not hide a newer failure", () => {
  const verification = deriveSmokeVerification([
    job("old", "2026-01-01T00:00:00Z", {
      conditions: [{ type: "Complete", status: "True", lastTransitionTime: "2026-01-01T00:01:00Z" }],
    }),
    job("new", "2026-01-02T00:00:00Z", {
      conditions: [
        {
          type: "Failed",
          status: "True",
          reason: "BackoffLimitExceeded",
          lastTransitionTime: "2026-01-02T00:01:00Z",
        },
      ],
    }),
  ]);
  assert.equal(verification.state, "FAILED");
  assert.equal(verification.jobName, "new");
  assert.equal(verification.reason, "BackoffLimitExceeded");
  assert.equal(verification.time, "2026-01-02T00:01:00Z");
});

test("Complete=True is VERIFIED; a ready active pod is RUNNING; otherwise PENDING with the waiting reason", () => {
  const complete = job("a", "2026-01-01T00:00:00Z", {
    conditions: [{ type: "Complete", status: "True" }],
    completionTime: "t",
  });
  assert.equal(deriveSmokeVerification([complete]).state, "VERIFIED");
  assert.equal(deriveSmokeVerification([job("a", "x", { active: 1, ready: 1 })]).state, "RUNNING");
  const pending = deriveSmokeVerification(
    [job("a", "2026-01-01T00:00:00Z", { active: 1 })],
    [
      {
        name: "p",
        phase: "Pending",
        startTime: null,
        labels: {},
        containers: [
          {
            name: "runner",
            image: "i",
            ready: false,
            restarts: 0,
            state: { kind: "waiting", reason: "ErrImagePull" },
          },
        ],
      },
    ],
  );
  assert.equal(pending.state, "PENDING");
  assert.match(pending.reason, /ErrImagePull/);
  assert.equal(pending.time, "2026-01-01T00:00:00Z");
  assert.equal(
    deriveSmokeVerification([job("a", "x", { conditions: [{ type: "Failed", status: "False" }] })]).state,
    "PENDING",
  );
});
