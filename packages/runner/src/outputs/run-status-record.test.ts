import assert from "node:assert/strict";
import { mkdir, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { parseRunStatus, type RunStatus } from "@svc/core";
import { makeTempDir } from "@svc/testing";
import { RunnerError } from "../runner-error.ts";
import { RunStatusRecorder, recordSealCompleted } from "./run-status-record.ts";

const now = () => new Date("2026-11-27T03:00:00Z");

async function readRecord(path: string): Promise<RunStatus> {
  const record = parseRunStatus(JSON.parse(await readFile(path, "utf8")));
  assert.ok(record, "a valid svc.run-status/v1 record");
  return record;
}

test("the recorder writes a whole record beside the run folder at each stage, then the end with its exit code", async (t) => {
  const root = await makeTempDir("svc-run-status-", t);
  const entered: string[] = [];
  const status = new RunStatusRecorder({
    outputRoot: root,
    runId: "run_1",
    projectId: "demo",
    now,
    afterEnter: async (stage) => {
      entered.push(stage);
      // the hook runs once the record naming the stage is on disk
      assert.equal((await readRecord(status.path)).stage, stage);
    },
  });
  assert.equal(status.path, join(root, ".run-status", "run_1.json"));
  await status.enter("plan");
  await status.enter("charge", { rows: 3, rows_ok: 2, rows_invalid: 1, rows_unassessed: 0 });
  await status.enter("write", { compounds: 3 });
  let record = await readRecord(status.path);
  assert.equal(record.state, "running");
  assert.equal(record.counts.rows, 3);
  assert.equal(record.counts.compounds, 3);
  assert.equal(record.exit_code, null);
  assert.equal(record.outputs, undefined, "no outputs are listed before the run succeeded");
  const outputs = [{ path: "results/summary.json", bytes: 120, sha256: "a".repeat(64) }] as const;
  await status.succeed(
    { status: "pending_online_verification", reason: "run_complete_unreachable" },
    10,
    "run_complete was unreachable",
    outputs,
  );
  record = await readRecord(status.path);
  assert.equal(record.state, "succeeded");
  assert.equal(record.exit_code, 10);
  assert.deepEqual(record.seal, {
    status: "pending_online_verification",
    reason: "run_complete_unreachable",
    seal_id: null,
  });
  assert.deepEqual(record.outputs, outputs);
  assert.deepEqual(entered, ["plan", "charge", "write"]);
  // atomic: no temp file is left beside the record
  assert.deepEqual(await readdir(join(root, ".run-status")), ["run_1.json"]);

  await recordSealCompleted(
    join(root, "run_1"),
    { runId: "run_1", projectId: "demo", sealId: "seal_abc", outputs },
    now,
  );
  record = await readRecord(status.path);
  assert.equal(record.exit_code, 0);
  assert.deepEqual(record.seal, { status: "sealed", reason: null, seal_id: "seal_abc" });
  assert.equal(record.counts.rows, 3, "completing the seal keeps what the run counted");
  assert.deepEqual(record.outputs, outputs, "and the outputs the pre-seal hashed");
});

test("an interruption is recorded as interrupted (exit 75), any other error as failed with its code", async (t) => {
  const root = await makeTempDir("svc-run-status-", t);
  await mkdir(root, { recursive: true });
  const status = new RunStatusRecorder({ outputRoot: root, runId: "run_2", projectId: "demo", now });
  await status.enter("analyse");
  await status.fail(new RunnerError("INTERRUPTED", "SIGTERM received during the analyse stage"));
  let record = await readRecord(status.path);
  assert.equal(record.state, "interrupted");
  assert.equal(record.exit_code, 75);
  assert.equal(record.stage, "analyse");
  await status.fail(new Error("disk full"));
  record = await readRecord(status.path);
  assert.equal(record.state, "failed");
  assert.equal(record.exit_code, 1);
  assert.match(record.reason ?? "", /INTERNAL: disk full/);
});
