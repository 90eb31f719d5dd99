import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { generateSigningKey, issueSealBundle, sha256Hex } from "@svc/core";
import { RUN_FOLDER_TAMPERING, type RunFolderTampering, writeSealedRunFolder } from "@svc/testing";
import { writeExpectedHashes, writeReproPack } from "./repro-pack.ts";

const key = generateSigningKey();

async function sealedRun(t: { after: (fn: () => Promise<void>) => void }) {
  const root = await mkdtemp(join(tmpdir(), "svc-verify-sh-"));
  t.after(() => rm(root, { recursive: true, force: true }));
  const runDir = join(root, "run");
  const bundle = await writeSealedRunFolder(runDir, {
    key,
    beforeSeal: (dir) =>
      writeReproPack(dir, {
        runId: "run_20261123T120000Z",
        projectId: "demo",
        mode: "standard",
        moduleId: "computational",
        categoryPreset: "SMALL_MOLECULE__LIGAND_ONLY__NO_STRUCTURE__NO_ASSAYS",
        image: { reference: "runner:1.0.0", digest: null },
        generatedAt: "2026-11-23T12:00:00Z",
        inputsSha256: sha256Hex("inputs"),
        runtime: { node: "24" },
        config: {},
        inputEntries: [],
      }),
    writeExpectedHashes,
  });
  // The issuer's key as the user got it from the issuer: outside the run folder.
  const keyPath = join(root, "issuer.pem");
  await writeFile(keyPath, bundle.publicKeyPem);
  return { root, runDir, keyPath, bundle };
}

function verifySh(runDir: string, ...args: string[]) {
  const result = spawnSync("bash", [join(runDir, "repro_pack/container/verify.sh"), ...args], {
    encoding: "utf8",
  });
  return { code: result.status, out: `${result.stdout}${result.stderr}` };
}

describe("repro_pack/container/verify.sh", () => {
  it("says OK for an untouched run with the issuer's key passed from outside the folder", async (t) => {
    const { runDir, keyPath } = await sealedRun(t);
    const result = verifySh(runDir, "--key", keyPath);
    assert.equal(result.code, 0, result.out);
    assert.match(result.out, /verify: OK, seal\/seal\.json is signed by/);
  });

  for (const kind of Object.keys(RUN_FOLDER_TAMPERING) as RunFolderTampering[]) {
    it(`fails (exit 1) for a run with an ${kind}, against the sealed hashes`, async (t) => {
      const { runDir, keyPath } = await sealedRun(t);
      await RUN_FOLDER_TAMPERING[kind](runDir, writeExpectedHashes);
      const result = verifySh(runDir, "--key", keyPath);
      assert.equal(result.code, 1, result.out);
      assert.match(result.out, /verify: FAILED/);
      if (kind === "edited manifest") assert.match(result.out, /run_manifest\.json hashes to/);
      if (kind === "rewritten expected-hashes list") assert.match(result.out, /that list was rewritten/);
      if (kind === "deleted file") assert.match(result.out, /-[0-9a-f]{64} {2}raw\/descriptors_raw\.json/);
    });
  }

  it("fails for a fabricated seal signed by another key, even when the folder carries that key", async (t) => {
    const { runDir, keyPath, bundle } = await sealedRun(t);
    const forger = generateSigningKey();
    const fake = issueSealBundle({ ...bundle.payload, principal: "forger@example.com" }, forger);
    await writeFile(join(runDir, "seal", "seal.json"), fake.sealJson);
    await writeFile(join(runDir, "seal", "seal.sig"), fake.sealSig);
    await writeFile(join(runDir, "seal", "public_key.pem"), fake.publicKeyPem);
    const result = verifySh(runDir, "--key", keyPath);
    assert.equal(result.code, 1, result.out);
    assert.match(result.out, /signature of seal\/seal\.json does not verify/);
  });

  it("is a script shellcheck finds nothing wrong with", async (t) => {
    const { runDir } = await sealedRun(t);
    const result = spawnSync("shellcheck", [join(runDir, "repro_pack/container/verify.sh")], {
      encoding: "utf8",
    });
    assert.equal(result.error, undefined, "shellcheck must be installed (.ci/run installs it)");
    assert.equal(result.status, 0, result.stdout);
  });

  it("refuses to run without a key from outside the folder (exit 2, one line saying what to pass)", async (t) => {
    const { runDir } = await sealedRun(t);
    const result = verifySh(runDir);
    assert.equal(result.code, 2);
    assert.equal(result.out.trim().split("\n").length, 1);
    assert.match(result.out, /pass --key <issuer public key\.pem>/);
  });
});
