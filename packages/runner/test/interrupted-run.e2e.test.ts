import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { digestTree } from "@svc/core";
import { ANOTHER_SERVICE, comparableOutputs } from "./support/comparable-outputs.ts";
import { startTestEntitlement, type TestEntitlement } from "./support/entitlement-harness.ts";
import { REPO, runCli, stageDemo } from "./support/run-cli.ts";

const NCI = "/usr/share/RDKit/Data/NCI/first_5K.smi";
const BIN = join(REPO, "packages", "runner", "bin", "svc-runner.ts");
const PRINCIPAL = "resume@example.com";
let service: TestEntitlement;
let token: string;

before(async () => {
  service = await startTestEntitlement();
  token = await service.tokenFor(PRINCIPAL);
  await service.grant(PRINCIPAL, 3);
});
after(async () => {
  await service?.close();
});

/** A project of 400 NCI molecules (Debian rdkit-data): long enough to be stopped mid-run. */
async function stageNci(t: { after: (fn: () => Promise<void>) => void }) {
  const staged = await stageDemo();
  t.after(() => rm(join(staged.inputRoot, ".."), { recursive: true, force: true }));
  const sources = join(staged.projectDir, "01_sources");
  await rm(sources, { recursive: true });
  await mkdir(sources);
  const lines = readFileSync(NCI, "utf8").split("\n").slice(0, 400).join("\n");
  await writeFile(join(sources, "nci.smi"), `${lines}\n`);
  await writeFile(join(sources, "sources.json"), JSON.stringify({ portfolio_selected_csv: "nci.smi" }));
  return staged;
}

function args(staged: { inputRoot: string; outputRoot: string }, url: string) {
  return [
    ...["--project-id", "demo", "--run-id", "run_resume", "--input-root", staged.inputRoot],
    ...["--output-root", staged.outputRoot, "--entitlement-url", url, "--auth-mode", "dev", "--workers", "1"],
  ];
}

/** Starts svc-runner and sends SIGTERM once its log says `when` (e.g. the run was consumed). */
function runAndStop(cliArgs: string[], when: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...cliArgs], {
      env: { PATH: process.env.PATH ?? "", SVC_DEV_TOKEN: token },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += String(chunk);
      if (stderr.includes(when) && !child.killed) child.kill("SIGTERM");
    });
    child.on("close", (code) => resolve({ code, stderr }));
  });
}

async function ledger(url: string, bearer: string) {
  const response = await fetch(new URL("/api/entitlement/check", url), {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${bearer}` },
    body: JSON.stringify({
      run_id: "run_other",
      project_id: "demo",
      mode: "standard",
      module_id: "computational",
    }),
  });
  return (await response.json()) as { runs_remaining: number };
}

test("SIGTERM after the charge stops the run cleanly (exit 75, summary interrupted); the rerun resumes with one consume and the uninterrupted outputs", async (t) => {
  const staged = await stageNci(t);
  const stopped = await runAndStop(args(staged, service.url), "run consumed");
  assert.equal(stopped.code, 75, stopped.stderr);
  assert.match(stopped.stderr, /SIGTERM received: stopping/);
  assert.match(stopped.stderr, /INTERRUPTED: SIGTERM received during the (charge|analyse) stage/);
  const runDir = join(staged.outputRoot, "run_resume");
  const summary = JSON.parse(await readFile(join(runDir, "results", "summary.json"), "utf8"));
  assert.equal(summary.status, "interrupted");
  assert.equal(summary.signal, "SIGTERM");
  const left = (await digestTree(runDir)).entries.map((entry) => entry.path);
  assert.deepEqual(
    left.filter((path) => path.includes(".tmp-") || path.startsWith(".scratch")),
    [],
    "no partial or scratch file left",
  );
  assert.equal(
    (await ledger(service.url, token)).runs_remaining,
    2,
    "one of the three runs granted is consumed",
  );

  const resumed = await runCli(args(staged, service.url), { SVC_DEV_TOKEN: token });
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.equal((await ledger(service.url, token)).runs_remaining, 2, "no second charge");
  const manifest = JSON.parse(await readFile(join(runDir, "run_manifest.json"), "utf8"));
  assert.equal(manifest.entitlement.check.already_consumed, true, "consume was a replay");

  // The same run, never interrupted, against a second service: equal outputs but named fields.
  const other = await startTestEntitlement();
  t.after(() => other.close());
  await other.grant(PRINCIPAL, 1);
  const reference = await stageNci(t);
  const clean = await runCli(args(reference, other.url), { SVC_DEV_TOKEN: await other.tokenFor(PRINCIPAL) });
  assert.equal(clean.code, 0, clean.stderr);
  const [a, b] = [
    await comparableOutputs(runDir, "run_resume", ANOTHER_SERVICE),
    await comparableOutputs(join(reference.outputRoot, "run_resume"), "run_resume", ANOTHER_SERVICE),
  ];
  assert.deepEqual([...a.keys()], [...b.keys()]);
  for (const [path, text] of a) assert.equal(text, b.get(path), path);
});

test("SIGTERM while rows are being validated stops before the charge: exit 75, no ledger entry, no run folder", async (t) => {
  const staged = await stageNci(t);
  const before = (await ledger(service.url, token)).runs_remaining;
  const stopped = await runAndStop(args(staged, service.url), "validating rows");
  assert.equal(stopped.code, 75, stopped.stderr);
  assert.match(stopped.stderr, /INTERRUPTED: SIGTERM received during the validate stage/);
  assert.equal((await ledger(service.url, token)).runs_remaining, before, "nothing charged");
  await assert.rejects(stat(join(staged.outputRoot, "run_resume")), { code: "ENOENT" });
});
