import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { digestTree } from "@svc/core";
import { assertSameOutputsAcrossServices } from "./support/comparable-outputs.ts";
import { entitlementForFile, runOnAnotherService } from "./support/entitlement-harness.ts";
import { stageNci as stageNciLines } from "./support/nci-portfolio.ts";
import { REPO, runArgs, runCli } from "./support/run-cli.ts";

const BIN = join(REPO, "packages", "runner", "bin", "svc-runner.ts");
const PRINCIPAL = "resume@example.com";
const stand = entitlementForFile(PRINCIPAL, 3);

/** A project of 400 NCI molecules (Debian rdkit-data): long enough to be stopped mid-run. */
const stageNci = (t: { after: (fn: () => Promise<void>) => void }) => stageNciLines(t, 400);

function args(staged: { inputRoot: string; outputRoot: string }, url: string) {
  return runArgs({ runId: "run_resume", staged, entitlementUrl: url, extra: ["--workers", "1"] });
}

/** Starts svc-runner and sends SIGTERM once its log says `when` (e.g. the run was consumed). */
function runAndStop(cliArgs: string[], when: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...cliArgs], {
      env: { PATH: process.env.PATH ?? "", SVC_DEV_TOKEN: stand.token },
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

/** Runs left to the principal (asked for a run id that is never used). */
const runsRemaining = async () => (await stand.service.check(stand.token, "run_other")).runs_remaining;

test("SIGTERM after the charge stops the run cleanly (exit 75, summary interrupted); the rerun resumes with one consume and the uninterrupted outputs", async (t) => {
  const staged = await stageNci(t);
  const stopped = await runAndStop(args(staged, stand.service.url), "run consumed");
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
  assert.equal(await runsRemaining(), 2, "one of the three runs granted is consumed");

  const resumed = await runCli(args(staged, stand.service.url), { SVC_DEV_TOKEN: stand.token });
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.equal(await runsRemaining(), 2, "no second charge");
  const manifest = JSON.parse(await readFile(join(runDir, "run_manifest.json"), "utf8"));
  assert.equal(manifest.entitlement.check.already_consumed, true, "consume was a replay");

  // The same run, never interrupted, against a second service: equal outputs but named fields.
  const reference = await stageNci(t);
  const clean = await runOnAnotherService(t, PRINCIPAL, (url) => args(reference, url));
  assert.equal(clean.code, 0, clean.stderr);
  await assertSameOutputsAcrossServices(runDir, join(reference.outputRoot, "run_resume"), "run_resume");
});

test("SIGTERM while rows are being validated stops before the charge: exit 75, no ledger entry, no run folder", async (t) => {
  const staged = await stageNci(t);
  const before = await runsRemaining();
  const stopped = await runAndStop(args(staged, stand.service.url), "validating rows");
  assert.equal(stopped.code, 75, stopped.stderr);
  assert.match(stopped.stderr, /INTERRUPTED: SIGTERM received during the validate stage/);
  assert.equal(await runsRemaining(), before, "nothing charged");
  await assert.rejects(stat(join(staged.outputRoot, "run_resume")), { code: "ENOENT" });
});
