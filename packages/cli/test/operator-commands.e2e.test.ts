import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { type AddressInfo, createServer } from "node:net";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { NO_RUN_COUNTS, RUN_STATUS_DIR } from "@svc/core";
import { completedSummaryDocument } from "@svc/testing";
import {
  ADMIN_TOKEN,
  type OperatorServices,
  PREFLIGHT_TOKEN,
  startOperatorServices,
  svc,
} from "./support/operator-services.ts";

let services: OperatorServices;
let home: string;

async function writeRunFile(runId: string, path: string, content: string | Buffer): Promise<void> {
  const full = join(services.outputRoot, runId, path);
  await mkdir(join(full, ".."), { recursive: true });
  await writeFile(full, content);
}

function runningPod(name: string, jobName: string) {
  return {
    metadata: { name, namespace: "svc", labels: { "batch.kubernetes.io/job-name": jobName } },
    spec: { containers: [{ name: "runner", image: "runner:1" }] },
    status: {
      phase: "Running",
      startTime: new Date().toISOString(),
      containerStatuses: [
        {
          name: "runner",
          image: "runner:1",
          ready: true,
          restartCount: 0,
          state: { running: { startedAt: new Date().toISOString() } },
        },
      ],
    },
  };
}

before(async () => {
  services = await startOperatorServices();
  home = join(services.root, "home");
  process.env.XDG_CONFIG_HOME = join(home, "config");
  process.env.KUBECONFIG = services.kubeconfig;
  await mkdir(home, { recursive: true });
  await writeFile(join(home, "admin-token"), `${ADMIN_TOKEN}\n`);
  await writeFile(join(home, "identity"), await services.identityToken("chemist@example.com"));
  // The preflight chart's auth secret (spec §2.6): K8S_API_TOKENS is a JSON array of { token }.
  services.double.putCoreObject("secrets", {
    metadata: { namespace: "svc", name: "svc-preflight-preflight-auth" },
    data: { K8S_API_TOKENS: Buffer.from(JSON.stringify([{ token: PREFLIGHT_TOKEN }])).toString("base64") },
  });
});
after(async () => {
  await services.close();
});

describe("svc context", () => {
  it("adds contexts to a 0600 config file and lists sources, never secrets", async () => {
    const added = await svc(
      "context",
      "add",
      "test",
      "--preflight-url",
      services.preflightUrl,
      "--preflight-token",
      "k8s:svc/svc-preflight-preflight-auth#K8S_API_TOKENS",
      "--namespace",
      "svc",
      "--entitlement-url",
      services.entitlement.url,
      "--identity",
      `file:${join(home, "identity")}`,
      "--admin-token",
      `file:${join(home, "admin-token")}`,
    );
    assert.equal(added.code, 0, added.stderr);
    const path = join(home, "config", "svc", "config.json");
    assert.equal((await stat(path)).mode & 0o777, 0o600);
    assert.equal((await stat(join(home, "config", "svc"))).mode & 0o777, 0o700);
    assert.equal((await svc("context", "add", "other", "--entitlement-url", "http://127.0.0.1:9")).code, 0);
    const listed = await svc("context", "list", "--json");
    const body = JSON.parse(listed.stdout) as { current: string; contexts: { name: string }[] };
    assert.equal(body.current, "test", "the first context becomes current");
    assert.deepEqual(
      body.contexts.map((entry) => entry.name),
      ["test", "other"],
    );
    const text = `${listed.stdout}${(await svc("context", "list")).stdout}${await readFile(path, "utf8")}`;
    assert.ok(
      !text.includes(ADMIN_TOKEN) && !text.includes(PREFLIGHT_TOKEN),
      "no secret is printed or stored",
    );
    assert.match(text, /k8s:svc\/svc-preflight-preflight-auth#K8S_API_TOKENS/);
  });

  it("refuses a bad secret source and an unknown context with one line saying what to do", async () => {
    const bad = await svc(
      "context",
      "add",
      "x",
      "--entitlement-url",
      "http://e",
      "--admin-token",
      "vault:abc",
    );
    assert.equal(bad.code, 2);
    assert.equal(bad.stderr.trim().split("\n").length, 1);
    assert.match(
      bad.stderr,
      /--admin-token "vault:abc" is not a secret source: use file:<path>, env:<VARIABLE> or k8s:/,
    );
    const unknown = await svc("context", "use", "nope");
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /no context "nope"; known: test, other/);
  });
});

describe("the svc bin", () => {
  it("without a context says what to do in one line, exit 2, no stack trace", () => {
    const result = spawnSync(
      process.execPath,
      [join(import.meta.dirname, "..", "bin", "svc.ts"), "runs", "list"],
      {
        encoding: "utf8",
        env: { ...process.env, XDG_CONFIG_HOME: join(services.root, "empty-config") },
      },
    );
    assert.equal(result.status, 2);
    assert.equal(
      result.stderr,
      "svc: no context in use: run svc context add <name> ... then svc context use <name>\n",
    );
  });
});

describe("svc entitlement", () => {
  it("issues runs, shows balances (own and all), pages the ledger and refuses a wrong admin token", async () => {
    const issued = await svc(
      "entitlement",
      "issue",
      "chemist@example.com",
      "--runs",
      "3",
      "--reason",
      "cli test",
      "--json",
    );
    assert.equal(issued.code, 0, issued.stderr);
    assert.equal(JSON.parse(issued.stdout).runs_remaining, 3);
    assert.equal(
      (await svc("entitlement", "issue", "chemist@example.com", "--runs", "1", "--mode", "deep")).code,
      0,
    );
    const own = await svc("entitlement", "balance");
    assert.equal(own.code, 0, own.stderr);
    assert.equal(own.stdout.trim(), "chemist@example.com: 3 standard, 1 deep run(s) left");
    const all = await svc("entitlement", "balance", "--all", "--json");
    assert.deepEqual(JSON.parse(all.stdout).principals, [
      { principal: "chemist@example.com", balances: { standard: 3, deep: 1 } },
    ]);
    const ledger = await svc("entitlement", "ledger", "--limit", "1", "--all", "--json");
    const entries = JSON.parse(ledger.stdout).entries as { delta: number; mode: string }[];
    assert.deepEqual(
      entries.map((entry) => [entry.mode, entry.delta]),
      [
        ["standard", 3],
        ["deep", 1],
      ],
    );
    const page = await svc("entitlement", "ledger", "--limit", "1");
    assert.match(page.stdout, /more: svc entitlement ledger --after \d+/);

    await writeFile(join(home, "admin-token"), "not-the-admin-token-at-all");
    const refused = await svc("entitlement", "issue", "x@example.com", "--runs", "1");
    await writeFile(join(home, "admin-token"), ADMIN_TOKEN);
    assert.equal(refused.code, 11);
    assert.match(
      refused.stderr,
      /answered 403 ADMIN_TOKEN_INVALID: .*check the identity and admin token sources of context "test"/,
    );
    assert.ok(!refused.stderr.includes("not-the-admin-token"), "the token is never echoed");
  });

  it("revokes a seal the service issued: online verification then reports it revoked", async () => {
    await svc("entitlement", "issue", "runner@example.com", "--runs", "1");
    const token = await services.identityToken("runner@example.com");
    const call = async (path: string, body: unknown) => {
      const response = await fetch(`${services.entitlement.url}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      assert.equal(response.status, 200, await response.clone().text());
      return (await response.json()) as { seal?: { seal_id: string; seal_svg: string } };
    };
    const run = { run_id: "run-revoke-1", project_id: "p", mode: "standard", module_id: "computational" };
    await call("/api/entitlement/consume", run);
    const hash = "a".repeat(64);
    await call("/api/entitlement/run_start", {
      ...run,
      category_id: "ligand_only",
      inputs_sha256: hash,
      image: { reference: "runner:1", digest: null },
    });
    const { seal } = await call("/api/entitlement/run_complete", {
      run_id: run.run_id,
      outputs_sha256: hash,
      run_manifest_sha256: hash,
    });
    assert.ok(seal);
    const revoked = await svc(
      "entitlement",
      "revoke",
      seal.seal_id,
      "--reason",
      "inputs were wrong",
      "--json",
    );
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.deepEqual(JSON.parse(revoked.stdout), { seal_id: seal.seal_id, revoked: true });
    const verify = await fetch(`${services.entitlement.url}/api/seal/verify`, {
      method: "POST",
      headers: { "content-type": "image/svg+xml" },
      body: seal.seal_svg,
    });
    assert.equal(((await verify.json()) as { revoked: boolean }).revoked, true);
    const ledger = JSON.parse(
      (await svc("entitlement", "ledger", "--principal", "runner@example.com", "--json")).stdout,
    );
    assert.deepEqual(
      ledger.entries.map((entry: { kind: string; run_id: string | null }) => [entry.kind, entry.run_id]),
      [
        ["grant", null],
        ["consume", "run-revoke-1"],
      ],
    );
  });

  it("revoking an unknown seal is a refusal (exit 12) naming the service's code; bad input never reaches it", async () => {
    const unknown = await svc(
      "entitlement",
      "revoke",
      "seal_0123456789abcdef0123456789abcdef",
      "--reason",
      "test",
    );
    assert.equal(unknown.code, 12);
    assert.match(unknown.stderr, /404 SEAL_NOT_FOUND/);
    const bad = await svc("entitlement", "issue", "x@example.com", "--runs", "0");
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--runs must be an integer from 1 to 100000/);
  });
});

describe("svc runs", () => {
  it("launches a run in the context's namespace, lists it and shows its status", async () => {
    const launched = await svc("runs", "launch", "proj-1", "--run-id", "run-cli-1", "--json");
    assert.equal(launched.code, 0, launched.stderr);
    const body = JSON.parse(launched.stdout) as { jobName: string; namespace: string };
    assert.equal(body.namespace, "svc");
    assert.ok(services.double.getJob("svc", body.jobName), "the Job exists in the API double");
    const list = await svc("runs", "list");
    assert.match(list.stdout, /^RUN\s+STATE/m);
    assert.match(list.stdout, /run-cli-1\s+pending\s+proj-1\s+standard/);
    const status = await svc("runs", "status", "run-cli-1");
    assert.equal(status.code, 0);
    assert.match(status.stdout, /run run-cli-1: pending/);
  });

  it("status --wait follows the run to its seal and exits 0; a failed run exits 1", async () => {
    const launched = JSON.parse(
      (await svc("runs", "launch", "proj-1", "--run-id", "run-cli-wait", "--json")).stdout,
    );
    const waiting = svc("runs", "status", "run-cli-wait", "--wait", "--interval", "1");
    await new Promise((resolve) => setTimeout(resolve, 1200));
    await writeRunFile(
      "run-cli-wait",
      "results/summary.json",
      JSON.stringify(completedSummaryDocument("run-cli-wait", { claim_strength: "HYPOTHESIS" })),
    );
    await writeRunFile("run-cli-wait", "seal/seal.json", JSON.stringify({ seal_id: "seal_wait" }));
    await writeRunFile("run-cli-wait", "seal/seal.sig", "sig\n");
    await writeRunFile("run-cli-wait", "seal/seal.svg", "<svg/>");
    services.double.setJobStatus("svc", launched.jobName, {
      succeeded: 1,
      conditions: [{ type: "Complete", status: "True" }],
    });
    const done = await waiting;
    assert.equal(done.code, 0, done.stderr);
    assert.match(done.stdout, /run run-cli-wait pending/);
    assert.match(done.stdout, /run run-cli-wait: sealed/);
    assert.match(done.stdout, /seal\s+sealed seal_wait/);
    assert.match(done.stdout, /category\s+ligand_only; claim strength HYPOTHESIS/);

    const failed = JSON.parse(
      (await svc("runs", "launch", "proj-1", "--run-id", "run-cli-fail", "--json")).stdout,
    );
    services.double.setJobStatus("svc", failed.jobName, {
      failed: 1,
      conditions: [{ type: "Failed", status: "True", reason: "BackoffLimitExceeded" }],
    });
    const result = await svc("runs", "status", "run-cli-fail", "--wait", "--interval", "1");
    assert.equal(result.code, 1);
    assert.match(result.stdout, /failed: Job .* failed: BackoffLimitExceeded/);
  });

  it("launch --wait follows a new run to its end and prints the summary and seal state", async () => {
    const waiting = svc(
      "runs",
      "launch",
      "proj-1",
      "--run-id",
      "run-cli-launch-wait",
      "--wait",
      "--interval",
      "1",
    );
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await writeRunFile("run-cli-launch-wait", "seal/preseal.json", JSON.stringify({ seal_id: null }));
    const job = services.double
      .listJobs("svc")
      .find((entry) => entry.metadata?.labels?.["svc.run-id"] === "run-cli-launch-wait");
    assert.ok(job?.metadata?.name);
    services.double.setJobStatus("svc", job.metadata.name, {
      failed: 0,
      succeeded: 1,
      conditions: [{ type: "Complete", status: "True" }],
    });
    const done = await waiting;
    assert.equal(done.code, 4, "a pre-sealed run is PRESEAL_UNSIGNED (exit 4)");
    assert.match(done.stdout, /^launched run run-cli-launch-wait as Job svc\/svc-run-/);
    assert.match(done.stdout, /run run-cli-launch-wait: pre-sealed/);
    assert.match(done.stdout, /next {6}complete the seal with svc-runner seal/);
  });

  it("a record saying sealed over a folder without that seal reads seal-missing or seal-mismatch in runs list and status, suggests no verify command and exits 1 with --wait (issue 38 item 5)", async () => {
    const sealedRecord = (runId: string) =>
      writeRunFile(
        RUN_STATUS_DIR,
        `${runId}.json`,
        JSON.stringify({
          schema: "svc.run-status/v1",
          run_id: runId,
          project_id: "proj-1",
          state: "succeeded",
          stage: "seal",
          counts: NO_RUN_COUNTS,
          seal: { status: "sealed", reason: null, seal_id: "seal_recorded" },
          exit_code: 0,
          reason: null,
          started_at: "2026-11-23T09:00:00Z",
          updated_at: "2026-11-23T09:10:00Z",
        }),
      );
    await writeRunFile("run-cli-unsealed-copy", "results/summary.json", "{}");
    await sealedRecord("run-cli-unsealed-copy");
    await sealedRecord("run-cli-record-only");
    await writeRunFile("run-cli-fake-preseal", "seal/preseal.json", "{}");
    await sealedRecord("run-cli-fake-preseal");
    await writeRunFile("run-cli-other-seal", "seal/seal.json", JSON.stringify({ seal_id: "seal_other" }));
    await writeRunFile("run-cli-other-seal", "seal/seal.sig", "sig\n");
    await writeRunFile("run-cli-other-seal", "seal/seal.svg", "<svg/>");
    await sealedRecord("run-cli-other-seal");
    const list = await svc("runs", "list", "--limit", "1000");
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /run-cli-unsealed-copy\s+seal-missing\s.*\snone$/m);
    assert.match(list.stdout, /run-cli-record-only\s+seal-missing\s.*\snone$/m);
    assert.match(list.stdout, /run-cli-fake-preseal\s+seal-missing\s.*\spending_online_verification$/m);
    assert.match(list.stdout, /run-cli-other-seal\s+seal-mismatch\s.*\snone$/m);
    const expected: [string, string][] = [
      ["run-cli-unsealed-copy", "seal-missing"],
      ["run-cli-record-only", "seal-missing"],
      ["run-cli-fake-preseal", "seal-missing"],
      ["run-cli-other-seal", "seal-mismatch"],
    ];
    for (const [runId, state] of expected) {
      const status = await svc("runs", "status", runId, "--wait", "--interval", "1");
      assert.equal(status.code, 1, `${runId}: ${status.stderr}`);
      assert.match(
        status.stdout,
        new RegExp(`run ${runId}: ${state} \\(the record says sealed as seal_recorded`),
      );
      assert.doesNotMatch(status.stdout, /seal verify/, `${runId}: no verify command is suggested`);
      assert.match(status.stdout, /next {6}do not rely on this run's seal/);
    }
  });

  it("logs -f waits for the pod, streams the log and ends when the pod ends", async () => {
    const launched = JSON.parse(
      (await svc("runs", "launch", "proj-1", "--run-id", "run-cli-logs", "--json")).stdout,
    );
    const following = svc("runs", "logs", "run-cli-logs", "-f");
    await new Promise((resolve) => setTimeout(resolve, 500));
    const pod = `${launched.jobName}-abcde`;
    services.double.putPod(runningPod(pod, launched.jobName));
    services.double.appendPodLog("svc", pod, "runner", "validate: ok\n");
    await new Promise((resolve) => setTimeout(resolve, 2500));
    services.double.appendPodLog("svc", pod, "runner", "seal: sealed\n");
    services.double.endPodLog("svc", pod, "runner");
    const result = await following;
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, "validate: ok\nseal: sealed\n");
    assert.match(result.stderr, /has no pod yet; retry shortly; waiting/);
    const whole = await svc("runs", "logs", "run-cli-logs", "--tail", "1");
    assert.equal(whole.stdout, "seal: sealed\n");
  });

  it("lists outputs and downloads a file, resuming an interrupted download with Range", async () => {
    const content = randomBytes(3 * 1024 * 1024 + 17);
    await writeRunFile("run-cli-out", "results/big.bin", content);
    await writeRunFile("run-cli-out", "repro_pack/manifest.json", "{}\n");
    const outputs = await svc("runs", "outputs", "run-cli-out");
    assert.match(outputs.stdout, /results\/big\.bin\s+3\.0 MiB/);
    assert.ok(outputs.stdout.indexOf("results/") < outputs.stdout.indexOf("repro_pack/"));

    // An earlier attempt stopped after 1 MiB: the part file and the validator it was sent with.
    const destination = join(services.root, "big.bin");
    const head = await fetch(
      `${services.preflightUrl}/api/outputs/download?runId=run-cli-out&path=results/big.bin`,
      {
        method: "HEAD",
        headers: { authorization: `Bearer ${PREFLIGHT_TOKEN}` },
      },
    );
    await writeFile(`${destination}.part`, content.subarray(0, 1024 * 1024));
    await writeFile(
      `${destination}.part.json`,
      JSON.stringify({
        etag: head.headers.get("etag"),
        url: `${services.preflightUrl}|run-cli-out|results/big.bin`,
      }),
    );
    const resumed = await svc("runs", "get", "run-cli-out", "results/big.bin", "-o", destination, "--json");
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.deepEqual(JSON.parse(resumed.stdout), {
      path: destination,
      bytes: content.length,
      resumedFrom: 1024 * 1024,
    });
    assert.ok((await readFile(destination)).equals(content));
    const rangeRequests = await fetch(`${services.preflightUrl}/metrics`).then((r) => r.text());
    assert.match(
      rangeRequests,
      /route="\/api\/outputs\/download",status="206"/,
      "the resume was a 206 range answer",
    );
    await assert.rejects(stat(`${destination}.part`), "the part file is gone once complete");

    const again = await svc("runs", "get", "run-cli-out", "results/big.bin", "-o", destination);
    assert.equal(again.code, 2);
    assert.match(again.stderr, /exists: pass --force/);

    // issue 37: -o into a folder that does not exist is a usage error naming the fix, never ENOENT
    const missingFolder = join(services.root, "no-such-folder", "big.bin");
    const missing = await svc("runs", "get", "run-cli-out", "results/big.bin", "-o", missingFolder);
    assert.equal(missing.code, 2, missing.stderr);
    assert.match(
      missing.stderr,
      /no-such-folder does not exist: create it \(mkdir -p .*no-such-folder\) or pass another -o/,
    );
    assert.doesNotMatch(missing.stderr, /ENOENT|internal error/);
    // -o naming an existing folder writes the file under its own name there, as cp does
    const intoFolder = await svc(
      "runs",
      "get",
      "run-cli-out",
      "results/big.bin",
      "-o",
      services.root,
      "--force",
      "--json",
    );
    assert.equal(intoFolder.code, 0, intoFolder.stderr);
    assert.equal(JSON.parse(intoFolder.stdout).path, join(services.root, "big.bin"));

    const pack = await svc("runs", "repro-pack", "run-cli-out", "-o", join(services.root, "pack.tgz"));
    assert.equal(pack.code, 0, pack.stderr);
    assert.deepEqual([...(await readFile(join(services.root, "pack.tgz"))).subarray(0, 2)], [0x1f, 0x8b]);
  });

  it("a stale part (the file changed since) starts over and still ends with the right bytes", async () => {
    const content = Buffer.from("new content of the file\n".repeat(1000));
    await writeRunFile("run-cli-stale", "results/data.txt", content);
    const destination = join(services.root, "data.txt");
    await writeFile(`${destination}.part`, "old bytes that must not survive");
    await writeFile(
      `${destination}.part.json`,
      JSON.stringify({
        etag: '"stale-etag"',
        url: `${services.preflightUrl}|run-cli-stale|results/data.txt`,
      }),
    );
    const result = await svc("runs", "get", "run-cli-stale", "results/data.txt", "-o", destination, "--json");
    assert.equal(result.code, 0, result.stderr);
    assert.equal(JSON.parse(result.stdout).resumedFrom, 0);
    assert.ok((await readFile(destination)).equals(content));
  });

  it("a preflight URL that points at the entitlement service is named as such, not a bare 404 (issue 28 item 6)", async () => {
    const added = await svc(
      "context",
      "add",
      "swapped",
      "--preflight-url",
      services.entitlement.url,
      "--preflight-token",
      "k8s:svc/svc-preflight-preflight-auth#K8S_API_TOKENS",
      "--namespace",
      "svc",
    );
    assert.equal(added.code, 0, added.stderr);
    const listed = await svc("runs", "list", "--context", "swapped");
    assert.equal(listed.code, 12, listed.stderr);
    assert.match(
      listed.stderr,
      /^svc: http:\/\/127\.0\.0\.1:\d+ answers like an entitlement service, not preflight \(the preflight service answered 404 .*\); set the preflight URL of the context: svc context add <name> --preflight-url <url>$/m,
    );
  });

  it("a run that does not exist is a refusal naming the code; an unreachable service says so (exit 10)", async () => {
    const missing = await svc("runs", "status", "no-such-run");
    assert.equal(missing.code, 12);
    assert.match(missing.stderr, /^svc: the preflight service answered 404 RUN_UNKNOWN: /);
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    assert.equal((await svc("context", "add", "down", "--preflight-url", url, "--namespace", "svc")).code, 0);
    const down = await svc("runs", "list", "--context", "down");
    assert.equal(down.code, 10);
    assert.ok(
      down.stderr.startsWith(
        `svc: cannot reach the preflight service at ${url} (ECONNREFUSED); check the URL`,
      ),
      down.stderr,
    );
  });
});
