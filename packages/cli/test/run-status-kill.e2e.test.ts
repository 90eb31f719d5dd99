import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { cp, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { RUN_STAGES, type RunDetail, type RunStage, runDetailResponseSchema } from "@svc/core";
import {
  ADMIN_TOKEN,
  type OperatorServices,
  PREFLIGHT_TOKEN,
  startOperatorServices,
  svc,
} from "./support/operator-services.ts";

// Issue 29 item 3: a real svc-runner is held at each stage boundary (SVC_TEST_PAUSE_AT_STAGE: it
// logs "paused at stage X" once its status record says X, then waits), killed with SIGKILL, and
// both preflight's GET /api/runs/{runId} and `svc runs status` must report what the record says:
// running at that stage while its Job is alive, interrupted once the Job is gone. No timing: the
// test acts on the runner's own line.

const REPO = join(import.meta.dirname, "..", "..", "..");
const RUNNER_BIN = join(REPO, "packages", "runner", "bin", "svc-runner.ts");
const PRINCIPAL = "kill-test@example.com";

let services: OperatorServices;
let inputRoot: string;
let identity: string;

before(async () => {
  services = await startOperatorServices();
  const home = join(services.root, "home");
  process.env.XDG_CONFIG_HOME = join(home, "config");
  process.env.KUBECONFIG = services.kubeconfig;
  await mkdir(home, { recursive: true });
  services.double.putCoreObject("secrets", {
    metadata: { namespace: "svc", name: "svc-preflight-preflight-auth" },
    data: { K8S_API_TOKENS: Buffer.from(JSON.stringify([{ token: PREFLIGHT_TOKEN }])).toString("base64") },
  });
  const added = await svc(
    "context",
    "add",
    "kill",
    "--preflight-url",
    services.preflightUrl,
    "--preflight-token",
    "k8s:svc/svc-preflight-preflight-auth#K8S_API_TOKENS",
    "--namespace",
    "svc",
  );
  assert.equal(added.code, 0, added.stderr);
  inputRoot = join(services.root, "input");
  await cp(join(REPO, "examples", "demo"), join(inputRoot, "demo"), { recursive: true });
  const issued = await fetch(new URL("/api/entitlement/issue", services.entitlement.url), {
    method: "POST",
    headers: { "content-type": "application/json", "x-svc-admin-token": ADMIN_TOKEN },
    body: JSON.stringify({ principal: PRINCIPAL, runs: RUN_STAGES.length, mode: "standard" }),
  });
  assert.equal(issued.status, 200, await issued.text());
  identity = await services.identityToken(PRINCIPAL);
});
after(async () => {
  await services?.close();
});

/** Starts svc-runner held at `stage`; resolves once it says it paused there, with the child. */
async function runnerPausedAt(runId: string, stage: RunStage) {
  const child = spawn(
    process.execPath,
    [
      RUNNER_BIN,
      "--project-id",
      "demo",
      "--run-id",
      runId,
      "--input-root",
      inputRoot,
      "--output-root",
      services.outputRoot,
      "--entitlement-url",
      services.entitlement.url,
      "--audience",
      services.entitlement.url,
      "--auth-mode",
      "dev",
    ],
    {
      env: {
        PATH: process.env.PATH ?? "",
        SVC_DEV_TOKEN: identity,
        SVC_REPORT_PDF: "off",
        SVC_TEST_PAUSE_AT_STAGE: stage,
      },
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  let stderr = "";
  const exited = once(child, "exit");
  await new Promise<void>((resolve, reject) => {
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (text: string) => {
      stderr += text;
      if (stderr.includes(`paused at stage ${stage}`)) resolve();
    });
    child.on("exit", (code) =>
      reject(new Error(`svc-runner exited ${code} before pausing at ${stage}:\n${stderr}`)),
    );
  });
  return { child, exited };
}

async function detailFromApi(runId: string): Promise<RunDetail> {
  const response = await fetch(new URL(`/api/runs/${runId}`, services.preflightUrl), {
    headers: { authorization: `Bearer ${PREFLIGHT_TOKEN}` },
  });
  assert.equal(response.status, 200);
  return runDetailResponseSchema.parse(await response.json());
}

async function detailFromCli(runId: string): Promise<RunDetail> {
  const status = await svc("runs", "status", runId, "--json");
  assert.equal(status.code, 0, status.stderr);
  return runDetailResponseSchema.parse(JSON.parse(status.stdout));
}

describe("a run killed at a stage boundary", () => {
  for (const stage of RUN_STAGES) {
    it(`killed at ${stage}: running at ${stage} while its Job lives, interrupted at ${stage} once the Job is gone, on both surfaces`, async () => {
      const runId = `run-kill-${stage}`;
      const launched = await svc("runs", "launch", "demo", "--run-id", runId, "--json");
      assert.equal(launched.code, 0, launched.stderr);
      const { jobName } = JSON.parse(launched.stdout) as { jobName: string };
      services.double.setJobStatus("svc", jobName, { active: 1 });

      const { child, exited } = await runnerPausedAt(runId, stage);
      child.kill("SIGKILL");
      await exited;

      for (const detail of [await detailFromApi(runId), await detailFromCli(runId)]) {
        assert.equal(detail.derived, false, "the state comes from the status record");
        assert.equal(detail.state, "running", detail.stateReason);
        assert.equal(detail.stage, stage);
        assert.equal(detail.exitCode, null);
      }
      const human = await svc("runs", "status", runId);
      assert.match(human.stdout, new RegExp(`run ${runId}: running \\(stage ${stage}`));

      const removed = await fetch(
        new URL(`/apis/batch/v1/namespaces/svc/jobs/${jobName}`, services.double.url),
        {
          method: "DELETE",
          headers: { authorization: "Bearer double-sa-token" },
        },
      );
      assert.equal(removed.status, 200, await removed.text());
      for (const detail of [await detailFromApi(runId), await detailFromCli(runId)]) {
        assert.equal(detail.state, "interrupted", detail.stateReason);
        assert.equal(detail.stage, stage);
        assert.match(detail.stateReason, /Job is gone/);
      }
    });
  }
});
