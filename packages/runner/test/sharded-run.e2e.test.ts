import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { mkdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { listUncoveredPaths, verifySealFolder } from "@svc/core";
import { ANOTHER_SERVICE, comparableOutputs } from "./support/comparable-outputs.ts";
import {
  type RecordingProxy,
  startRecordingProxy,
  startTestEntitlement,
  type TestEntitlement,
} from "./support/entitlement-harness.ts";
import { runCli, stageDemo } from "./support/run-cli.ts";

const NCI = "/usr/share/RDKit/Data/NCI/first_5K.smi";
const PRINCIPAL = "shards@example.com";
let service: TestEntitlement;
let proxy: RecordingProxy;
let token: string;

before(async () => {
  service = await startTestEntitlement();
  proxy = await startRecordingProxy(service.url);
  token = await service.tokenFor(PRINCIPAL);
  await service.grant(PRINCIPAL, 2);
});
after(async () => {
  await proxy?.close();
  await service?.close();
});

/** 150 NCI molecules (Debian rdkit-data) plus two that do not parse. */
async function stageNci(t: { after: (fn: () => Promise<void>) => void }) {
  const staged = await stageDemo();
  t.after(() => rm(join(staged.inputRoot, ".."), { recursive: true, force: true }));
  const sources = join(staged.projectDir, "01_sources");
  await rm(sources, { recursive: true });
  await mkdir(sources);
  const lines = readFileSync(NCI, "utf8").split("\n").slice(0, 150);
  lines.splice(10, 0, "not-a-smiles bad1", "C1CC bad2");
  await writeFile(join(sources, "nci.smi"), `${lines.join("\n")}\n`);
  await writeFile(join(sources, "sources.json"), JSON.stringify({ portfolio_selected_csv: "nci.smi" }));
  return staged;
}

function args(staged: { inputRoot: string; outputRoot: string }, url: string, extra: string[] = []) {
  return [
    ...["--project-id", "demo", "--run-id", "run_sharded", "--input-root", staged.inputRoot],
    ...["--output-root", staged.outputRoot, "--entitlement-url", url, "--auth-mode", "dev", "--workers", "1"],
    ...extra,
  ];
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

test("three pods of an Indexed Job (JOB_COMPLETION_INDEX) make one run: one consume, one seal, outputs equal to one pod's", async (t) => {
  const staged = await stageNci(t);
  proxy.paths.length = 0;
  const pods = await Promise.all(
    [2, 1, 0].map((index) =>
      runCli(args(staged, proxy.url, ["--shards", "3"]), {
        SVC_DEV_TOKEN: token,
        JOB_COMPLETION_INDEX: String(index),
      }),
    ),
  );
  for (const pod of pods) assert.equal(pod.code, 0, pod.stderr);
  assert.match(pods[0]?.stderr ?? "", /shard finished; index 0 seals the run/);
  assert.equal((await ledger(service.url, token)).runs_remaining, 1, "one run consumed by three pods");
  assert.equal(
    proxy.paths.filter((path) => path === "/api/entitlement/run_complete").length,
    1,
    "one run_complete",
  );
  const runDir = join(staged.outputRoot, "run_sharded");
  await assert.rejects(stat(join(runDir, "shards")), { code: "ENOENT" }, "slices removed after the merge");
  const seal = join(runDir, "seal");
  const verification = verifySealFolder(
    {
      sealSvg: await readFile(join(seal, "seal.svg"), "utf8"),
      sealJson: await readFile(join(seal, "seal.json"), "utf8"),
      sealSig: await readFile(join(seal, "seal.sig"), "utf8"),
    },
    await service.trustedKeys(),
  );
  assert.equal(verification.state, "VERIFIED", verification.reason);
  // No pod's .scratch-<k> or an empty folder is left beside the sealed outputs (issue 23 item 2).
  assert.deepEqual(await listUncoveredPaths(runDir, "sealed"), []);

  // The same run in one process, against a second service: equal outputs but named fields.
  const other = await startTestEntitlement();
  t.after(() => other.close());
  await other.grant(PRINCIPAL, 1);
  const reference = await stageNci(t);
  const single = await runCli(args(reference, other.url), { SVC_DEV_TOKEN: await other.tokenFor(PRINCIPAL) });
  assert.equal(single.code, 0, single.stderr);
  const [a, b] = [
    await comparableOutputs(runDir, "run_sharded", ANOTHER_SERVICE),
    await comparableOutputs(join(reference.outputRoot, "run_sharded"), "run_sharded", ANOTHER_SERVICE),
  ];
  assert.deepEqual([...a.keys()], [...b.keys()]);
  for (const [path, text] of a) assert.equal(text, b.get(path), path);
  const validation = JSON.parse(await readFile(join(runDir, "inputs", "validation.json"), "utf8"));
  assert.deepEqual(
    validation.rows
      .slice(9, 13)
      .map((row: { candidate_id: string; status: string }) => [row.candidate_id, row.status]),
    [
      ["10", "ok"],
      ["bad1", "invalid"],
      ["bad2", "invalid"],
      ["11", "ok"],
    ],
    "portfolio order across the slices",
  );
});

test("sharded pods refuse a bad portfolio together, before any entitlement call, and leave no run folder", async (t) => {
  const staged = await stageNci(t);
  proxy.paths.length = 0;
  const pods = await Promise.all(
    [1, 0].map((index) =>
      runCli(args(staged, proxy.url, ["--shards", "2", "--max-invalid-fraction", "0.001"]), {
        SVC_DEV_TOKEN: token,
        JOB_COMPLETION_INDEX: String(index),
      }),
    ),
  );
  for (const pod of pods) {
    assert.equal(pod.code, 2, pod.stderr);
    assert.match(pod.stderr, /PORTFOLIO_INVALID: 2 of 152 rows/);
  }
  assert.deepEqual(proxy.paths, []);
  await assert.rejects(stat(join(staged.outputRoot, "run_sharded")), { code: "ENOENT" });
});
