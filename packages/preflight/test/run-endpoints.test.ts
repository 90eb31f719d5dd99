import assert from "node:assert/strict";
import { cp, mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { NO_RUN_COUNTS, RUN_STATUS_DIR, runDetailResponseSchema, runListResponseSchema } from "@svc/core";
import { completedSummaryDocument } from "@svc/testing";
import { jsonPost, type ServiceHarness, startServiceHarness } from "./service-harness.ts";

async function writeRunFile(root: string, runId: string, path: string, content: string): Promise<void> {
  const full = join(root, runId, path);
  await mkdir(join(full, ".."), { recursive: true });
  await writeFile(full, content);
}

function runningPod(name: string, jobName: string, containers: string[]) {
  return {
    metadata: { name, namespace: "svc", labels: { "batch.kubernetes.io/job-name": jobName } },
    spec: { containers: containers.map((container) => ({ name: container, image: "runner:1" })) },
    status: {
      phase: "Running",
      startTime: new Date().toISOString(),
      containerStatuses: containers.map((container) => ({
        name: container,
        image: "runner:1",
        ready: true,
        restartCount: 0,
        state: { running: { startedAt: new Date().toISOString() } },
      })),
    },
  };
}

async function launch(harness: ServiceHarness, runId: string): Promise<string> {
  const response = await harness.call(
    "/api/pipeline/run",
    jsonPost({ projectId: "proj-1", namespace: "svc", runId }),
  );
  assert.equal(response.status, 201);
  return ((await response.json()) as { jobName: string }).jobName;
}

describe("runs: list, detail and logs against the Kubernetes API double", () => {
  let harness: ServiceHarness;
  before(async () => {
    harness = await startServiceHarness();
  });
  after(() => harness.close());

  test("GET /api/runs lists output folders and launched Jobs newest first, each with its state", async () => {
    const root = harness.outputRoot;
    await writeRunFile(root, "run-sealed", "seal/seal.json", JSON.stringify({ seal_id: "seal-1" }));
    await writeRunFile(root, "run-sealed", "seal/seal.sig", "c2ln\n");
    await writeRunFile(root, "run-sealed", "seal/seal.svg", "<svg/>");
    await writeRunFile(root, "run-presealed", "seal/preseal.json", "{}");
    await writeRunFile(root, "run-unsealed", "results/summary.json", "{}");
    await new Promise((resolve) => setTimeout(resolve, 20));
    const failedJob = await launch(harness, "run-failed");
    harness.double.setJobStatus("svc", failedJob, {
      failed: 1,
      conditions: [{ type: "Failed", status: "True", reason: "BackoffLimitExceeded" }],
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    await launch(harness, "run-pending");

    const response = await harness.call("/api/runs");
    assert.equal(response.status, 200);
    const body = runListResponseSchema.parse(await response.json());
    const states = Object.fromEntries(body.runs.map((run) => [run.runId, run.state]));
    assert.deepEqual(states, {
      "run-sealed": "sealed",
      "run-presealed": "pre-sealed",
      "run-unsealed": "succeeded",
      "run-failed": "failed",
      "run-pending": "pending",
    });
    assert.equal(body.runs[0]?.runId, "run-pending", "the newest launch comes first");
    assert.equal(body.runs[1]?.runId, "run-failed");
    assert.match(body.runs[1]?.stateReason ?? "", /BackoffLimitExceeded/);
    assert.deepEqual(body.namespaces, ["svc"]);
    const limited = runListResponseSchema.parse(await (await harness.call("/api/runs?limit=2")).json());
    assert.equal(limited.runs.length, 2);
    assert.equal(limited.truncated, true);
  });

  test("GET /api/runs refuses a namespace outside the allow list and a bad limit, naming the parameter", async () => {
    const other = await harness.call("/api/runs?namespace=kube-system");
    assert.equal(other.status, 403);
    assert.equal(((await other.json()) as { error: { code: string } }).error.code, "NAMESPACE_NOT_ALLOWED");
    const bad = await harness.call("/api/runs?limit=0");
    assert.equal(bad.status, 400);
    assert.match(((await bad.json()) as { error: { message: string } }).error.message, /^limit/);
  });

  test("GET /api/runs/{runId} reports Job, pods with phases, seal id and summary highlights", async () => {
    const jobName = await launch(harness, "run-detail");
    harness.double.putPod(runningPod(`${jobName}-abcde`, jobName, ["runner"]));
    await writeRunFile(
      harness.outputRoot,
      "run-detail",
      "results/summary.json",
      // a finished run's summary (core's runSummaryFileSchema); it says nothing of the seal
      JSON.stringify(
        completedSummaryDocument("run-detail", {
          claim_strength: "HYPOTHESIS",
          coverage_ratio: 0.5,
          compounds: { total: 12, parsed: 11 },
          missing_proof: ["docking"],
        }),
      ),
    );
    const response = await harness.call("/api/runs/run-detail");
    assert.equal(response.status, 200);
    const detail = runDetailResponseSchema.parse(await response.json());
    assert.equal(detail.state, "running");
    assert.equal(detail.derived, true, "no status record: the state is derived and says so");
    assert.equal(detail.job?.name, jobName);
    assert.equal(detail.pods[0]?.phase, "Running");
    assert.equal(detail.projectId, "proj-1");
    assert.deepEqual(detail.highlights, {
      categoryId: "ligand_only",
      claimStrength: "HYPOTHESIS",
      coverageRatio: 0.5,
      compoundsTotal: 12,
      compoundsParsed: 11,
      missingProof: ["docking"],
      generatedAt: "2026-11-23T10:00:00Z",
    });
    const sealed = runDetailResponseSchema.parse(await (await harness.call("/api/runs/run-sealed")).json());
    assert.deepEqual(sealed.seal, {
      status: "sealed",
      sealId: "seal-1",
      files: ["seal/seal.json", "seal/seal.sig", "seal/seal.svg"],
    });
    assert.equal(sealed.job, null);
    const unknown = await harness.call("/api/runs/no-such-run");
    assert.equal(unknown.status, 404);
    assert.equal(((await unknown.json()) as { error: { code: string } }).error.code, "RUN_UNKNOWN");
  });

  test("the status record decides the state (issue 29 item 3): a summary without a Job is failed when the record says so, and a run with only a record is listed", async () => {
    const root = harness.outputRoot;
    const record = (runId: string, patch: Record<string, unknown>) =>
      writeRunFile(
        root,
        RUN_STATUS_DIR,
        `${runId}.json`,
        JSON.stringify({
          schema: "svc.run-status/v1",
          run_id: runId,
          project_id: "proj-1",
          state: "running",
          stage: "plan",
          counts: NO_RUN_COUNTS,
          seal: { status: "none", reason: null, seal_id: null },
          exit_code: null,
          reason: null,
          started_at: "2026-11-23T09:00:00Z",
          updated_at: "2026-11-23T09:10:00Z",
          ...patch,
        }),
      );
    await writeRunFile(root, "run-recorded-failed", "results/summary.json", "{}");
    await record("run-recorded-failed", {
      state: "failed",
      stage: "write",
      exit_code: 1,
      reason: "INTERNAL: disk full",
    });
    await record("run-refused", {
      state: "failed",
      stage: "validate",
      exit_code: 2,
      reason: "PORTFOLIO_INVALID: 9 of 10 rows",
    });
    const failed = runDetailResponseSchema.parse(
      await (await harness.call("/api/runs/run-recorded-failed")).json(),
    );
    assert.equal(failed.state, "failed", failed.stateReason);
    assert.equal(failed.derived, false);
    assert.equal(failed.stage, "write");
    assert.equal(failed.exitCode, 1);
    const refused = runDetailResponseSchema.parse(await (await harness.call("/api/runs/run-refused")).json());
    assert.equal(refused.state, "failed");
    assert.equal(refused.hasOutputs, false);
    assert.match(refused.stateReason, /PORTFOLIO_INVALID/);
    const list = runListResponseSchema.parse(await (await harness.call("/api/runs?limit=1000")).json());
    const listed = list.runs.find((run) => run.runId === "run-refused");
    assert.equal(listed?.state, "failed");
    assert.ok(!list.runs.some((run) => run.runId === RUN_STATUS_DIR), "the record folder is not a run");
  });

  test("a record saying sealed is sealed only when the folder's seal files name its seal (issue 38 item 5): a copy without seal/, a record without a folder, a fabricated pre-seal and another seal's files read as the disagreement", async () => {
    const root = harness.outputRoot;
    const sealedRecord = (runId: string) =>
      writeRunFile(
        root,
        RUN_STATUS_DIR,
        `${runId}.json`,
        JSON.stringify({
          schema: "svc.run-status/v1",
          run_id: runId,
          project_id: "proj-1",
          state: "succeeded",
          stage: "seal",
          counts: NO_RUN_COUNTS,
          seal: { status: "sealed", reason: null, seal_id: "seal-genuine" },
          exit_code: 0,
          reason: null,
          started_at: "2026-11-23T09:00:00Z",
          updated_at: "2026-11-23T09:10:00Z",
        }),
      );
    await writeRunFile(root, "run-genuine", "results/summary.json", "{}");
    await writeRunFile(root, "run-genuine", "seal/seal.json", JSON.stringify({ seal_id: "seal-genuine" }));
    await writeRunFile(root, "run-genuine", "seal/seal.sig", "c2ln\n");
    await writeRunFile(root, "run-genuine", "seal/seal.svg", "<svg/>");
    await sealedRecord("run-genuine");
    // a copy of the genuine run, record and all, with seal/ removed
    await cp(join(root, "run-genuine"), join(root, "run-copy"), { recursive: true });
    await rm(join(root, "run-copy", "seal"), { recursive: true });
    await sealedRecord("run-copy");
    await sealedRecord("run-record-only");
    await writeRunFile(
      root,
      "run-fake-preseal",
      "seal/preseal.json",
      JSON.stringify({ run_id: "run-fake-preseal" }),
    );
    await sealedRecord("run-fake-preseal");
    await cp(join(root, "run-genuine"), join(root, "run-other-seal"), { recursive: true });
    await writeRunFile(root, "run-other-seal", "seal/seal.json", JSON.stringify({ seal_id: "seal-other" }));
    await sealedRecord("run-other-seal");

    const expected: Record<string, [string, string]> = {
      "run-genuine": ["sealed", "sealed"],
      "run-copy": ["seal-missing", "none"],
      "run-record-only": ["seal-missing", "none"],
      "run-fake-preseal": ["seal-missing", "pending_online_verification"],
      "run-other-seal": ["seal-mismatch", "none"],
    };
    const list = runListResponseSchema.parse(await (await harness.call("/api/runs?limit=1000")).json());
    for (const [runId, [state, sealStatus]] of Object.entries(expected)) {
      const listed = list.runs.find((run) => run.runId === runId);
      assert.deepEqual([listed?.state, listed?.sealStatus], [state, sealStatus], `GET /api/runs: ${runId}`);
      const detail = runDetailResponseSchema.parse(await (await harness.call(`/api/runs/${runId}`)).json());
      assert.deepEqual([detail.state, detail.seal.status], [state, sealStatus], `GET /api/runs/${runId}`);
      assert.equal(detail.derived, false);
    }
    const copy = runDetailResponseSchema.parse(await (await harness.call("/api/runs/run-copy")).json());
    assert.match(copy.stateReason, /seal-genuine.*lacks seal\/seal\.json/);
    const recordOnly = runDetailResponseSchema.parse(
      await (await harness.call("/api/runs/run-record-only")).json(),
    );
    assert.match(recordOnly.stateReason, /no folder/);
    const other = runDetailResponseSchema.parse(
      await (await harness.call("/api/runs/run-other-seal")).json(),
    );
    assert.match(other.stateReason, /names seal-other/);
  });

  test("GET /api/runs/{runId}/logs streams the log; follow=true ends when the container ends", async () => {
    const jobName = await launch(harness, "run-logs");
    const pod = `${jobName}-xyz12`;
    harness.double.putPod(runningPod(pod, jobName, ["runner", "metering"]));
    harness.double.appendPodLog("svc", pod, "runner", "line 1\nline 2\n");
    harness.double.appendPodLog("svc", pod, "metering", "reported 1\n");

    const whole = await harness.call("/api/runs/run-logs/logs");
    assert.equal(whole.status, 200);
    assert.equal(whole.headers.get("x-svc-container"), "runner");
    assert.equal(await whole.text(), "line 1\nline 2\n");
    const other = await harness.call("/api/runs/run-logs/logs?container=metering");
    assert.equal(await other.text(), "reported 1\n");

    const followed = await harness.call("/api/runs/run-logs/logs?follow=true");
    assert.equal(followed.status, 200);
    const reader = followed.body?.getReader();
    assert.ok(reader);
    const decoder = new TextDecoder();
    let received = decoder.decode((await reader.read()).value);
    assert.equal(received, "line 1\nline 2\n");
    harness.double.appendPodLog("svc", pod, "runner", "line 3\n");
    harness.double.endPodLog("svc", pod, "runner");
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
      received += decoder.decode(chunk.value);
    }
    assert.equal(received, "line 1\nline 2\nline 3\n", "the stream ended with the container");

    const unknownContainer = await harness.call("/api/runs/run-logs/logs?container=sidecar");
    assert.equal(unknownContainer.status, 400);
    assert.match(
      ((await unknownContainer.json()) as { error: { message: string } }).error.message,
      /choose one of: runner, metering/,
    );
    const noJob = await harness.call("/api/runs/run-sealed/logs");
    assert.equal(noJob.status, 404);
    assert.equal(((await noJob.json()) as { error: { code: string } }).error.code, "RUN_JOB_NOT_FOUND");
  });

  test("a follow whose Kubernetes connection is cut ends the response instead of hanging, and the service goes on", async () => {
    const jobName = await launch(harness, "run-cut");
    const pod = `${jobName}-cut01`;
    harness.double.putPod(runningPod(pod, jobName, ["runner"]));
    harness.double.appendPodLog("svc", pod, "runner", "started\n");
    const followed = await harness.call("/api/runs/run-cut/logs?follow=true");
    const reader = followed.body?.getReader();
    assert.ok(reader);
    assert.equal(new TextDecoder().decode((await reader.read()).value), "started\n");
    harness.double.cutPodLog("svc", pod, "runner");
    const ended = await Promise.race([
      (async () => {
        try {
          while (!(await reader.read()).done);
        } catch {
          // a cut transfer is an error on the client side: what matters is that it ends
        }
        return "ended";
      })(),
      new Promise((resolve) => setTimeout(() => resolve("hanging"), 5000)),
    ]);
    assert.equal(ended, "ended");
    assert.equal((await fetch(`${harness.baseUrl}/api/health`)).status, 200);
  });

  test("logs of a Job without a pod yet answer 409 LOG_NOT_READY (a client retries)", async () => {
    await launch(harness, "run-nopod");
    const response = await harness.call("/api/runs/run-nopod/logs");
    assert.equal(response.status, 409);
    assert.equal(((await response.json()) as { error: { code: string } }).error.code, "LOG_NOT_READY");
  });

  test("/metrics counts requests, launched Jobs and streamed bytes", async () => {
    await launch(harness, "run-metrics");
    assert.equal((await harness.call("/api/runs")).status, 200);
    await writeRunFile(harness.outputRoot, "run-bytes", "results/data.bin", "x".repeat(5000));
    const download = await harness.call("/api/outputs/download?runId=run-bytes&path=results/data.bin");
    assert.equal((await download.arrayBuffer()).byteLength, 5000);
    // the streamed bytes are counted when the response has finished on the server's side, which may
    // be a tick after the client read its last byte: read /metrics until they show (bounded)
    const bytesLine = /svc_preflight_bytes_streamed_total\{route="\/api\/outputs\/download"\} (\d+)/;
    let metrics = "";
    for (let attempt = 0; attempt < 50; attempt++) {
      metrics = await (await fetch(`${harness.baseUrl}/metrics`)).text();
      if (Number(bytesLine.exec(metrics)?.[1]) === 5000) break;
      await new Promise((resolve) => setTimeout(resolve, 40));
    }
    const jobs = /svc_preflight_jobs_launched_total\{kind="pipeline"\} (\d+)/.exec(metrics);
    assert.ok(jobs && Number(jobs[1]) >= 1, `pipeline launches are counted:\n${metrics.slice(0, 3000)}`);
    assert.equal(Number(bytesLine.exec(metrics)?.[1]), 5000);
    assert.match(
      metrics,
      /svc_preflight_http_requests_total\{method="GET",route="\/api\/runs",status="200"\}/,
    );
  });
});
