import assert from "node:assert/strict";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { RUN_FILES, type RunCompleteFields, type RunCompleteResponse, runPath } from "@svc/core";
import { makeTempDir, writeRunFolderDocuments } from "@svc/testing";
import { createLogger } from "../log.ts";
import { RunnerError } from "../runner-error.ts";
import { sealHashesWithFiles } from "./seal-hashes.ts";
import { sealRun } from "./seal-run.ts";

// sealRun is the sealing steps of the seal stage and `svc-runner seal` (issue 41 item 2): what it
// asks run_complete and what it writes, against an entitlement service we own.

/** A run folder whose provenance facts are readable (manifest, plan, input hashes in their shapes). */
async function runFolder(t: { after: (fn: () => Promise<void>) => void }) {
  const runDir = join(await makeTempDir("svc-seal-run-", t), "run_1");
  await writeRunFolderDocuments(runDir, { runId: "run_1" });
  return runDir;
}

const answer = (body: RunCompleteFields): RunCompleteResponse => ({
  run_id: body.run_id,
  state: "completed",
  seal: {
    seal_id: "seal_1",
    payload: {},
    seal_json: '{"seal_id":"seal_1"}',
    seal_sig: "c2ln\n",
    seal_svg: "<svg/>",
    public_key_pem: "pem\n",
    key_id: "ed25519:00",
    verify_md: "# verify\n",
  },
});

const log = createLogger("json", { write: () => {} });

test("sealRun asks run_complete to seal exactly the hashed outputs, with their provenance, and writes seal/ from the answer", async (t) => {
  const runDir = await runFolder(t);
  const hashes = await sealHashesWithFiles(runDir);
  const asked: RunCompleteFields[] = [];
  const entitlement = {
    runComplete: async (body: RunCompleteFields) => {
      asked.push(body);
      return answer(body);
    },
  };
  const seal = await sealRun({ runDir, runId: "run_1", log, entitlement }, hashes);
  assert.equal(seal.seal_id, "seal_1");
  assert.equal(asked.length, 1);
  assert.equal(asked[0]?.outputs_sha256, hashes.outputs_sha256);
  assert.equal(asked[0]?.run_manifest_sha256, hashes.run_manifest_sha256);
  assert.deepEqual(
    asked[0]?.provenance?.outputs.map((file) => file.path),
    hashes.files.map((file) => file.path),
    "the provenance names the files behind outputs_sha256",
  );
  assert.equal(await readFile(join(runDir, RUN_FILES.sealJson), "utf8"), '{"seal_id":"seal_1"}');
  assert.equal(await readFile(join(runDir, RUN_FILES.sealSvg), "utf8"), "<svg/>");
});

test("sealRun seals without provenance when its facts are unreadable, rather than not sealing", async (t) => {
  const runDir = await runFolder(t);
  await writeFile(join(runDir, RUN_FILES.manifest), JSON.stringify({ not: "a manifest" }));
  let provenance: unknown = "unset";
  await sealRun(
    {
      runDir,
      runId: "run_1",
      log,
      entitlement: {
        runComplete: async (body) => {
          provenance = body.provenance;
          return answer(body);
        },
      },
    },
    await sealHashesWithFiles(runDir),
  );
  assert.equal(provenance, undefined);
});

test("sealRun throws run_complete's refusal as it came and writes no seal/: the caller decides on a pre-seal", async (t) => {
  const runDir = await runFolder(t);
  const refusal = new RunnerError("ENTITLEMENT_UNREACHABLE", "connection refused");
  await assert.rejects(
    sealRun(
      {
        runDir,
        runId: "run_1",
        log,
        entitlement: {
          runComplete: async () => {
            throw refusal;
          },
        },
      },
      await sealHashesWithFiles(runDir),
    ),
    (error: unknown) => error === refusal,
  );
  assert.equal((await readdir(runDir)).includes(runPath("sealDir")), false);
});
