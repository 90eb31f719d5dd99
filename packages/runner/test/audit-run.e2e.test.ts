import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { appendFile, cp, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";
import { promisify } from "node:util";
import {
  CLAIM_LINE_LABELS,
  type ClaimStrength,
  checkProvenanceFile,
  computeSealedRunHashes,
  digestTree,
  isClaimStrength,
  isOutsideSealedOutputs,
  isSealPayload,
  listUncoveredPaths,
  parseRunStatus,
  RUN_FILES,
  RUN_STATUS_OUTPUT_FILES,
  type RunStatus,
  readRunFolder,
  runStatusPathOfRunDir,
  sha256File,
  VERIFY_SCRIPT,
} from "@svc/core";
import { startFakeEntitlement, startFakeMetadataServer } from "@svc/testing";
import { ANOTHER_SERVICE, comparableOutputs } from "./support/comparable-outputs.ts";
import {
  type RecordingProxy,
  startRecordingProxy,
  startTestEntitlement,
  type TestEntitlement,
} from "./support/entitlement-harness.ts";
import { runArgs, runCli, stageDemo } from "./support/run-cli.ts";
import { readJson, verifyRunSeal } from "./support/run-folder.ts";

const sh = promisify(execFile);
let service: TestEntitlement;

before(async () => {
  service = await startTestEntitlement();
  console.log(`# e2e against the real entitlement service at ${service.url}`);
});
const keyDirs: string[] = [];
after(async () => {
  await service?.close();
  for (const dir of keyDirs) await rm(dir, { recursive: true, force: true });
});

async function runDemo(options: {
  principal?: string;
  token?: string;
  runId: string;
  url?: string;
  extra?: string[];
  env?: Record<string, string>;
  staged?: Awaited<ReturnType<typeof stageDemo>>;
}) {
  const staged = options.staged ?? (await stageDemo());
  const token = options.token ?? (await service.tokenFor(options.principal ?? "alice@example.com"));
  const result = await runCli(
    runArgs({
      runId: options.runId,
      staged,
      entitlementUrl: options.url ?? service.url,
      audience: service.url,
      extra: options.extra,
    }),
    { SVC_DEV_TOKEN: token, ...options.env },
  );
  return { ...result, ...staged, token, runDir: join(staged.outputRoot, options.runId) };
}

/** The issuer's published key, written outside every run folder (verify.sh never trusts the folder's). */
async function issuerKeyFile(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "svc-issuer-key-"));
  keyDirs.push(dir);
  const [key] = await service.trustedKeys();
  assert.ok(key);
  await writeFile(join(dir, "issuer.pem"), key.public_key_pem);
  return join(dir, "issuer.pem");
}

/** Grants alice one run and hands `body` a recording proxy in front of the service, closed after it. */
async function withProxy(body: (proxy: RecordingProxy) => Promise<void>) {
  await service.grant("alice@example.com", 1);
  const proxy = await startRecordingProxy(service.url);
  try {
    await body(proxy);
  } finally {
    await proxy.close();
  }
}

/** The run's status record, beside its folder (docs/contracts/run-status.md). */
async function readStatus(runDir: string): Promise<RunStatus> {
  const record = parseRunStatus(await readJson(runStatusPathOfRunDir(runDir)));
  assert.ok(record, "the status record parses");
  return record;
}

/**
 * Every hashed file (the outputs hash covers all but seal/ and scratch) with its inode, mtime and
 * SHA-256: equal snapshots mean no hashed file was written again in between, not even with the
 * same bytes (an atomic rewrite gives a new inode, an in-place one a new mtime).
 */
async function snapshotHashedFiles(runDir: string): Promise<Map<string, string>> {
  const tree = await digestTree(runDir, { exclude: isOutsideSealedOutputs });
  const files = new Map<string, string>();
  for (const entry of tree.entries) {
    const path = join(runDir, entry.path);
    const info = await stat(path, { bigint: true });
    files.set(entry.path, `${info.ino}:${info.mtimeNs}:${(await sha256File(path)).sha256}`);
  }
  return files;
}

/**
 * Takes a snapshot each time run_complete arrives at the proxy (the runner waits for its answer);
 * resolves to the first one taken, once every one is done.
 */
function snapshotAtRunComplete(proxy: RecordingProxy, runDir: () => string) {
  const pending: Promise<Map<string, string>>[] = [];
  proxy.before.set("/api/entitlement/run_complete", async () => {
    const snapshot = snapshotHashedFiles(runDir());
    pending.push(snapshot);
    await snapshot;
  });
  return async () => {
    const [first, ...later] = await Promise.all(pending);
    assert.ok(first, "run_complete was called");
    for (const again of later) assert.deepEqual(again, first, "a retried run_complete saw the same files");
    return first;
  };
}

/** `svc-runner seal --run-dir`: completes a pre-seal against the real service. */
function completeSealLater(runDir: string, token: string) {
  return runCli(
    [
      "seal",
      "--run-dir",
      runDir,
      "--entitlement-url",
      service.url,
      "--audience",
      service.url,
      "--auth-mode",
      "dev",
    ],
    { SVC_DEV_TOKEN: token },
  );
}

async function assertSealVerified(runDir: string) {
  const verification = await verifyRunSeal(runDir, await service.trustedKeys());
  assert.equal(verification.state, "VERIFIED", verification.reason);
  const tree = await digestTree(runDir, { exclude: (path) => path === "seal" });
  assert.equal(
    verification.payload?.outputs_sha256,
    tree.sha256,
    "seal covers the output set as it is on disk",
  );
  // Scratch removed before hashing, no empty folder, nothing extra in seal/ (issue 23 item 2).
  assert.deepEqual(await listUncoveredPaths(runDir, "sealed"), []);
  // issue 30 item 6: the issuer's signed SLSA provenance of exactly the sealed outputs
  assert.ok(isSealPayload(verification.payload));
  const provenance = checkProvenanceFile(
    verification.payload,
    await readFile(join(runDir, "seal", "provenance.intoto.jsonl")),
    await service.trustedKeys(),
  );
  assert.equal(provenance.ok, true, provenance.detail);
  // issue 37 item 3: the seal signs and draws the claim strength the sealed summary states
  const summary = await readJson(join(runDir, "results/summary.json"));
  assert.ok(isClaimStrength(summary.claim_strength), summary.claim_strength);
  assert.equal(verification.payload.claim_strength, summary.claim_strength);
  assert.match(
    await readFile(join(runDir, "seal/seal.svg"), "utf8"),
    new RegExp(`y="401"[^>]*>${CLAIM_LINE_LABELS[summary.claim_strength as ClaimStrength]}</text>`),
  );
  return verification;
}

describe("svc-runner end to end", () => {
  /**
   * One sealed run of the demo shared by the tests that read a finished run (issue 41 item 4: the
   * full-output, refused-rerun, 409 and write-once tests each made their own; the file went from 144
   * to 101 CPU-s). It goes through a recording proxy that snapshots the hashed files when
   * run_complete arrives; `afterRun` is the snapshot taken as soon as the run has ended, before any
   * test reads it or tampers with a copy of it.
   */
  let shared: {
    run: Awaited<ReturnType<typeof runDemo>>;
    atRunComplete: Map<string, string>;
    afterRun: Map<string, string>;
  };
  before(() =>
    withProxy(async (proxy) => {
      let runDir = "";
      const atRunComplete = snapshotAtRunComplete(proxy, () => runDir);
      const staged = await stageDemo();
      runDir = join(staged.outputRoot, "run_full");
      const run = await runDemo({ runId: "run_full", url: proxy.url, staged });
      assert.equal(run.code, 0, run.stderr);
      shared = { run, atRunComplete: await atRunComplete(), afterRun: await snapshotHashedFiles(runDir) };
    }),
  );

  test("a full entitled run writes every output, a verifiable seal, and a repro pack whose verify.sh detects tampering", async () => {
    const { run } = shared;
    for (const path of [
      "run_manifest.json",
      "results/summary.json",
      "results/metrics.json",
      "results/report.html",
      "results/combined_unified_computational_outputs.json",
      "results/risk_channels_map.json",
      "thresholds/category_scores.json",
      "thresholds/measurement_profile.json",
      "thresholds/risk_summary.json",
      "plans/run_full_module_plan.json",
      "inputs/input_hashes.json",
      "raw/molecular_logic_raw.json",
      "raw/kinase_drug_likeness_raw.json",
      "raw/admet_predictions_raw.json",
      "raw/toxicity_profile_raw.json",
      "raw/solubility_assessment_raw.json",
      "raw/cyp_assessment_raw.json",
      "seal/seal.json",
      "seal/seal.sig",
      "seal/seal.svg",
      "seal/public_key.pem",
      "seal/VERIFY.md",
      "repro_pack/manifest.json",
      "repro_pack/environment/runtime.json",
      "repro_pack/container/Dockerfile",
      "repro_pack/container/build.sh",
      "repro_pack/container/run.sh",
      "repro_pack/container/verify.sh",
      "repro_pack/outputs/expected_output_hashes.json",
    ]) {
      await readFile(join(run.runDir, path));
    }
    // issue 41 item 1: a real run's documents are the shapes core's run-folder schemas check
    const folder = readRunFolder(run.runDir);
    for (const read of [
      folder.summary,
      folder.modulePlan,
      folder.manifest,
      folder.inputHashes,
      folder.expectedHashes,
    ])
      assert.notEqual(await read(), null);
    const summary = await readJson(join(run.runDir, "results/summary.json"));
    // issue 29 item 2: the summary is hashed before the seal exists, so it names where the seal is.
    assert.equal(summary.seal.recorded_in, "seal/");
    assert.equal(summary.seal_status, undefined);
    const status = await readStatus(run.runDir);
    assert.equal(status.state, "succeeded");
    assert.equal(status.stage, "seal");
    assert.equal(status.exit_code, 0);
    assert.equal(status.seal.status, "sealed");
    assert.equal(status.counts.rows, 34);
    // the record lists the outputs a person fetches first, each as hashed for the seal (issue 41 item 1)
    const sealedFiles = new Map(
      (await computeSealedRunHashes(run.runDir)).outputs.entries.map((entry) => [entry.path, entry]),
    );
    assert.deepEqual(
      status.outputs?.map((output) => output.path),
      RUN_STATUS_OUTPUT_FILES.filter((path) => sealedFiles.has(path)),
    );
    for (const output of status.outputs ?? [])
      assert.deepEqual(
        { bytes: output.bytes, sha256: output.sha256 },
        { bytes: sealedFiles.get(output.path)?.size, sha256: sealedFiles.get(output.path)?.sha256 },
        output.path,
      );
    assert.ok(status.outputs?.some((output) => output.path === RUN_FILES.reportHtml));
    assert.equal(summary.category_id, "SMALL_MOLECULE__LIGAND_ONLY__NO_STRUCTURE__NO_ASSAYS");
    assert.equal(summary.compounds.total, 34);
    assert.equal(summary.compounds.parsed, 34);
    // issue 26: every required ligand module runs, so the demo's claim is SUPPORTED
    assert.deepEqual(summary.missing_proof, []);
    assert.equal(summary.claim_strength, "SUPPORTED");
    const raw = await readJson(join(run.runDir, "raw/cyp_assessment_raw.json"));
    assert.equal(raw.status, "executed");
    assert.equal(raw.result.compounds.length, 34);
    const admet = await readJson(join(run.runDir, "raw/admet_predictions_raw.json"));
    assert.equal(admet.status, "executed");
    assert.equal(admet.result.compounds.length, 34);
    // The Tox21 graph network runs split, in the workers (issue 26 item 2).
    const gcn = await readJson(join(run.runDir, "raw/gcn_toxicity_raw.json"));
    assert.equal(gcn.status, "executed", gcn.reason);
    assert.equal(gcn.result.compounds.filter((c: { status: string }) => c.status === "assessed").length, 34);
    // The readiness module reads the other modules' findings through the runner (run-modules.ts).
    const readiness = await readJson(
      join(run.runDir, "raw/wetlab_priority_and_readiness_determiner_raw.json"),
    );
    assert.equal(readiness.status, "executed", readiness.reason);
    assert.equal(readiness.result.summary.ranking.length, 34);
    assert.ok(readiness.result.compounds.every((c: { coverage: number | null }) => (c.coverage ?? 0) > 0.8));
    const metabolites = await readJson(join(run.runDir, "raw/metabolite_prediction_raw.json"));
    assert.equal(metabolites.status, "executed", metabolites.reason);
    const verification = await assertSealVerified(run.runDir);
    assert.equal(verification.payload?.run_id, "run_full");
    const report = await readFile(join(run.runDir, "results/report.html"), "utf8");
    assert.match(report, /<svg/);
    assert.doesNotMatch(report, /(src|href)=["']https?:/, "report fetches nothing from the network");
    // Tokens never reach logs or outputs.
    assert.ok(!run.stderr.includes(run.token));
    for (const entry of (await digestTree(run.runDir)).entries) {
      assert.ok(!(await readFile(join(run.runDir, entry.path), "utf8")).includes(run.token), entry.path);
    }
    // The auditor's known-good copy (`svc repro verify-script`), outside the folder (issue 23 item 3).
    const verify = join(run.runDir, "..", "released-verify.sh");
    await writeFile(verify, VERIFY_SCRIPT);
    const key = await issuerKeyFile();
    const ok = await sh("bash", [verify, "--key", key, run.runDir]);
    assert.match(ok.stdout, /verify: OK/);
    // Tampered in a copy: the sealed run stays as written for the other tests that read it.
    const copy = join(await mkdtemp(join(tmpdir(), "svc-tampered-")), "run_full");
    keyDirs.push(dirname(copy));
    await cp(run.runDir, copy, { recursive: true });
    assert.match((await sh("bash", [verify, "--key", key, copy])).stdout, /verify: OK/);
    await appendFile(join(copy, "results/metrics.json"), " ");
    await assert.rejects(sh("bash", [verify, "--key", key, copy]), /verify: FAILED/);
  });

  test("a finished run id is refused in the same output root, never overwritten", async () => {
    const first = shared.run;
    const again = await runCli(
      [
        "--project-id",
        "demo",
        "--run-id",
        "run_full",
        "--input-root",
        first.inputRoot,
        "--output-root",
        first.outputRoot,
        "--entitlement-url",
        service.url,
        "--auth-mode",
        "dev",
      ],
      { SVC_DEV_TOKEN: first.token },
    );
    assert.equal(again.code, 2);
    assert.match(again.stderr, /RUN_ALREADY_FINISHED/);
    // Refused before anything is written: the finished run's status record still says sealed.
    const status = await readStatus(first.runDir);
    assert.equal(status.state, "succeeded");
    assert.equal(status.seal.status, "sealed");
  });

  test("402: a principal without runs is stopped before any analysis", async () => {
    const run = await runDemo({ principal: "broke@example.com", runId: "run_402" });
    assert.equal(run.code, 3, run.stderr);
    assert.match(run.stderr, /ENTITLEMENT_EXHAUSTED/);
    await assert.rejects(
      readdir(run.runDir),
      { code: "ENOENT" },
      "refused before consume: no run folder left",
    );
    // The folder is gone; the record beside it says why (issue 29 item 3).
    const status = await readStatus(run.runDir);
    assert.equal(status.state, "failed");
    assert.equal(status.stage, "charge");
    assert.equal(status.exit_code, 3);
    assert.match(status.reason ?? "", /ENTITLEMENT_EXHAUSTED/);
  });

  test("409: a run id consumed by another principal is refused", async () => {
    // run_full was consumed by alice (the shared run); bob asks for the same id in his own output root.
    await service.grant("bob@example.com", 1);
    const bob = await runDemo({ principal: "bob@example.com", runId: "run_full" });
    assert.equal(bob.code, 3);
    assert.match(bob.stderr, /RUN_ID_CONFLICT/);
  });

  test("401: a bad identity token is refused with a message naming the cause", async () => {
    const run = await runDemo({ token: "not-a-valid-token", runId: "run_401" });
    assert.equal(run.code, 3);
    assert.match(run.stderr, /ENTITLEMENT_UNAUTHORIZED: entitlement check refused: 401/);
    assert.ok(!run.stderr.includes("not-a-valid-token"));
  });

  test("sealing writes each hashed file once: from run_complete to the end of a sealed run no hashed file is written again", async () => {
    const { atRunComplete: hashed, afterRun } = shared;
    assert.ok(hashed.has("results/summary.json") && hashed.has("results/report.html"));
    assert.deepEqual(afterRun, hashed);
    await assertSealVerified(shared.run.runDir);
  });

  test("run_complete unreachable gives a pre-seal (exit 10); svc-runner seal completes it later", () =>
    withProxy(async (proxy) => {
      proxy.drop.add("/api/entitlement/run_complete");
      let runDir = "";
      const atRunComplete = snapshotAtRunComplete(proxy, () => runDir);
      const staged = await stageDemo();
      runDir = join(staged.outputRoot, "run_preseal");
      const run = await runDemo({
        runId: "run_preseal",
        url: proxy.url,
        // A budget that outlasts the snapshot the proxy takes before it drops the call.
        extra: ["--timeout-sec", "5"],
        staged,
      });
      assert.equal(run.code, 10, run.stderr);
      // issue 29 item 2: the pre-seal is written beside the outputs; none of them is rewritten.
      const hashed = await atRunComplete();
      assert.deepEqual(await snapshotHashedFiles(run.runDir), hashed);
      const status = await readStatus(run.runDir);
      assert.equal(status.state, "succeeded");
      assert.equal(status.exit_code, 10);
      assert.deepEqual(status.seal, {
        status: "pending_online_verification",
        reason: "run_complete_unreachable",
        seal_id: null,
      });
      const preseal = await readJson(join(run.runDir, "seal/preseal.json"));
      assert.equal(preseal.reason, "run_complete_unreachable");
      await readFile(join(run.runDir, "seal/preseal.svg"));
      // Nothing is signed yet: verify.sh compares with the unsigned pre-seal and says PENDING (exit 4).
      await assert.rejects(sh("bash", [join(run.runDir, "repro_pack/container/verify.sh")]), (error) => {
        assert.equal((error as { code: number }).code, 4);
        assert.match((error as { stdout: string }).stdout, /verify: PRESEAL_UNSIGNED/);
        return true;
      });
      const sealed = await completeSealLater(run.runDir, run.token);
      assert.equal(sealed.code, 0, sealed.stderr);
      await assertSealVerified(run.runDir);
      await assert.rejects(readFile(join(run.runDir, "seal/preseal.json")));
      // Sealed as run_complete was first asked, with the hashed files still those first written.
      assert.deepEqual(await snapshotHashedFiles(run.runDir), hashed);
      const sealedStatus = await readStatus(run.runDir);
      assert.equal(sealedStatus.seal.status, "sealed");
      assert.equal(sealedStatus.exit_code, 0);
      assert.deepEqual(sealedStatus.outputs, status.outputs, "completing the seal keeps the listed outputs");
    }));

  test("run_complete refusing the job's credentials after the charge gives a pre-seal (exit 10), not a paid run without outputs", () =>
    withProxy(async (proxy) => {
      // The real service answers 401, as it does when a static dev token expires mid-run.
      proxy.stripAuth.add("/api/entitlement/run_complete");
      const run = await runDemo({ runId: "run_preseal_401", url: proxy.url });
      assert.equal(run.code, 10, run.stderr);
      assert.match(run.stderr, /run_complete refused the job's credentials .*: writing a pre-seal/);
      assert.match(run.stderr, /401/);
      assert.equal((await readStatus(run.runDir)).seal.reason, "run_complete_unauthorized");
      assert.equal(
        (await readJson(join(run.runDir, "seal/preseal.json"))).reason,
        "run_complete_unauthorized",
      );
      // The report is hashed before run_complete answers: it points at seal/, it claims no outcome.
      const report = await readFile(join(run.runDir, "results/report.html"), "utf8");
      assert.match(report, /cannot say whether the issuer sealed it/);
      assert.doesNotMatch(report, /class="seal-status">Sealed</);
      // Completing with a bad token is refused and keeps the pre-seal; a valid one seals.
      const refused = await completeSealLater(run.runDir, "not-a-valid-token");
      assert.equal(refused.code, 3, refused.stderr);
      assert.match(refused.stderr, /ENTITLEMENT_UNAUTHORIZED/);
      await readFile(join(run.runDir, "seal/preseal.json"));
      const sealed = await completeSealLater(run.runDir, run.token);
      assert.equal(sealed.code, 0, sealed.stderr);
      await assertSealVerified(run.runDir);
      assert.equal((await readStatus(run.runDir)).seal.status, "sealed");
    }));

  test("run_complete recorded but its reply lost: svc-runner seal later gets that same seal, not a 409", () =>
    withProxy(async (proxy) => {
      proxy.dropReply.add("/api/entitlement/run_complete");
      // The budget is each entitlement call's: the check before the charge needs it too, and on a
      // loaded machine (load 28 on 2 cores) 1 s was not enough for it (ENTITLEMENT_UNREACHABLE, exit 1).
      const run = await runDemo({ runId: "run_lost_reply", url: proxy.url, extra: ["--timeout-sec", "5"] });
      assert.equal(run.code, 10, run.stderr);
      assert.ok(proxy.paths.includes("/api/entitlement/run_complete"), "run_complete reached the service");
      const sealed = await completeSealLater(run.runDir, run.token);
      assert.equal(sealed.code, 0, sealed.stderr);
      await assertSealVerified(run.runDir);
      assert.equal((await readStatus(run.runDir)).seal.status, "sealed");
      await assert.rejects(readdir(join(run.runDir, "seal/pending")));
      const verify = await sh("bash", [
        join(run.runDir, "repro_pack/container/verify.sh"),
        "--key",
        await issuerKeyFile(),
      ]);
      assert.match(verify.stdout, /verify: OK/);
    }));

  test("the cloud auth mode asks the metadata server for an ID token with the audience", async () => {
    const fake = await startFakeEntitlement({ runs: 1 });
    const metadata = await startFakeMetadataServer({
      tokenFor: () => "token-wi-sa@project.iam.gserviceaccount.com",
    });
    try {
      const staged = await stageDemo();
      const run = await runCli(
        [
          "--project-id",
          "demo",
          "--run-id",
          "run_cloud",
          "--input-root",
          staged.inputRoot,
          "--output-root",
          staged.outputRoot,
          "--entitlement-url",
          fake.url,
          "--audience",
          "https://entitlement.example.com",
        ],
        { SVC_METADATA_URL: metadata.url },
      );
      assert.equal(run.code, 0, run.stderr);
      assert.ok(metadata.requests.length >= 4);
      for (const request of metadata.requests) {
        assert.equal(request.metadataFlavor, "Google");
        assert.equal(request.audience, "https://entitlement.example.com");
        assert.equal(request.format, "full");
      }
      assert.equal(fake.calls[0]?.authorization, "Bearer token-wi-sa@project.iam.gserviceaccount.com");
    } finally {
      await metadata.close();
      await fake.close();
    }
  });

  test("the same inputs, image and run id give byte-identical outputs apart from the named time fields, with one RDKit worker or two", async () => {
    const outputs: Map<string, string>[] = [];
    for (let attempt = 0; attempt < 2; attempt++) {
      const fake = await startFakeEntitlement({ runs: 1 });
      try {
        const staged = await stageDemo();
        const run = await runCli(
          runArgs({
            runId: "run_same",
            staged,
            entitlementUrl: fake.url,
            extra: ["--workers", String(attempt + 1)],
          }),
          { SVC_DEV_TOKEN: "token-alice" },
        );
        assert.equal(run.code, 0, run.stderr);
        const runDir = join(staged.outputRoot, "run_same");
        outputs.push(await comparableOutputs(runDir, "run_same", ANOTHER_SERVICE));
        if (attempt === 0) await new Promise((resolve) => setTimeout(resolve, 1100));
      } finally {
        await fake.close();
      }
    }
    const [a, b] = outputs as [Map<string, string>, Map<string, string>];
    assert.deepEqual([...a.keys()], [...b.keys()]);
    for (const [path, text] of a) assert.equal(b.get(path), text, path);
  });
});
