import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { generateSigningKey, issueSealBundle, sha256Hex, VERIFY_SCRIPT, VERIFY_SCRIPT_PATH } from "@svc/core";
import {
  RUN_FOLDER_FORGERIES,
  RUN_FOLDER_TAMPERING,
  type RunFolderTampering,
  type SealedRunFolderOptions,
  writeSealedRunFolder,
} from "@svc/testing";
import { writeExpectedHashes, writeReproPack } from "./repro-pack.ts";

const key = generateSigningKey();

async function sealedRun(
  t: { after: (fn: () => Promise<void>) => void },
  fields?: SealedRunFolderOptions["fields"],
) {
  const root = await mkdtemp(join(tmpdir(), "svc-verify-sh-"));
  t.after(() => rm(root, { recursive: true, force: true }));
  const runDir = join(root, "run");
  const bundle = await writeSealedRunFolder(runDir, {
    key,
    ...(fields ? { fields } : {}),
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
  // The auditor's known-good copy (`svc repro verify-script`), outside the folder it checks.
  await writeFile(join(root, "verify.sh"), VERIFY_SCRIPT);
  return { root, runDir, keyPath, bundle };
}

/** Runs the released verify.sh (a copy outside the folder) on `runDir`, as VERIFY.md says to. */
function verifySh(runDir: string, ...args: string[]) {
  const result = spawnSync("bash", [join(runDir, "..", "verify.sh"), ...args, runDir], { encoding: "utf8" });
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

  it("says OK for seals whose labels are cut with an ellipsis and that name a verify host", async (t) => {
    for (const fields of [
      { verify_url: "https://Entitlement.Example:443/verify?x=1" },
      { verify_url: "http://verify.example:8080/v" },
      { project_id: `p${"x".repeat(60)}`, run_id: `run_${"9".repeat(60)}` },
      { project_id: "p".repeat(33) },
    ]) {
      const { runDir, keyPath } = await sealedRun(t, fields);
      const result = verifySh(runDir, "--key", keyPath);
      assert.equal(result.code, 0, `${JSON.stringify(fields)}: ${result.out}`);
    }
  });

  it("writes core's released script, byte for byte, at repro_pack/container/verify.sh", async (t) => {
    const { runDir } = await sealedRun(t);
    assert.equal(await readFile(join(runDir, VERIFY_SCRIPT_PATH), "utf8"), VERIFY_SCRIPT);
  });

  for (const [name, forgery] of Object.entries(RUN_FOLDER_FORGERIES)) {
    if (forgery.verifySh === null) {
      it(`says OK for ${name}: only svc seal verify can check that (verify.sh's header says so)`, async (t) => {
        const { runDir, keyPath } = await sealedRun(t);
        await forgery.apply(runDir);
        assert.equal(verifySh(runDir, "--key", keyPath).code, 0);
        assert.match(
          VERIFY_SCRIPT,
          /Only `svc seal verify`\n# {5}decodes the ring and the QR and checks seal\/VERIFY\.md/,
        );
      });
      continue;
    }
    const expected = forgery.verifySh;
    it(`fails (exit 1) for ${name} (issue 23 items 2 and 3)`, async (t) => {
      const { runDir, keyPath } = await sealedRun(t);
      await forgery.apply(runDir);
      const result = verifySh(runDir, "--key", keyPath);
      assert.equal(result.code, 1, result.out);
      assert.match(result.out, /verify: FAILED/);
      assert.match(result.out, expected);
    });
  }

  it("fails for seal.svg numbers respelled as Chromium refuses to draw them (126 -> 126., padded, M170.)", async (t) => {
    for (const [from, to] of [
      ['y="126"', 'y="126."'],
      ['y="126"', 'y=" 126 "'],
      ['<path d="M240', '<path d="M240.'],
      ['<path fill="#000" d="M', '<path fill="#000" d="M '],
    ] as const) {
      const { runDir, keyPath } = await sealedRun(t);
      const path = join(runDir, "seal/seal.svg");
      const svg = await readFile(path, "utf8");
      assert.ok(svg.includes(from), from);
      await writeFile(path, svg.replace(from, to));
      const result = verifySh(runDir, "--key", keyPath);
      assert.equal(result.code, 1, `${to}: ${result.out}`);
      assert.match(result.out, /seal\.svg/);
    }
  });

  it("fails for seal.sig with non-base64 text inserted", async (t) => {
    const { runDir, keyPath } = await sealedRun(t);
    const path = join(runDir, "seal/seal.sig");
    const sig = await readFile(path, "utf8");
    await writeFile(path, `${sig.slice(0, 10)}!!${sig.slice(10)}`);
    const result = verifySh(runDir, "--key", keyPath);
    assert.equal(result.code, 1, result.out);
    assert.match(result.out, /seal\.sig is not one line of canonical base64 \(SEAL_SIG_MALFORMED\)/);
  });

  it("warns that a copy inside the folder it checks proves nothing", async (t) => {
    const { runDir, keyPath } = await sealedRun(t);
    const result = spawnSync("bash", [join(runDir, VERIFY_SCRIPT_PATH), "--key", keyPath], {
      encoding: "utf8",
    });
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stderr, /WARNING, this copy of verify\.sh sits in the folder it checks/);
  });

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
    const result = spawnSync("shellcheck", [join(runDir, VERIFY_SCRIPT_PATH)], {
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

describe("repro_pack/environment", () => {
  const info = {
    runId: "run_20261123T120000Z",
    projectId: "demo",
    mode: "standard",
    moduleId: "computational",
    categoryPreset: "SMALL_MOLECULE__STRUCTURE_PRESENT__NO_MD_TRAJ",
    image: { reference: "runner:1.0.0", digest: null },
    generatedAt: "2026-11-23T12:00:00Z",
    inputsSha256: sha256Hex("inputs"),
    runtime: { node: "24" },
    config: {},
    inputEntries: [],
  };

  it("records the structure tools' versions in structure-tools.json when a structure module ran, and no such file otherwise", async (t) => {
    const root = await mkdtemp(join(tmpdir(), "svc-repro-env-"));
    t.after(() => rm(root, { recursive: true, force: true }));
    const versions = {
      vina: "AutoDock Vina v1.2.3",
      obabel: "Open Babel 3.1.1",
      autogrid: "AutoGrid 4.2.6",
      python: { openmm: "7.7", pdbfixer: "1.7" },
      debianPackages: { "autodock-vina": "1.2.3-1", autogrid: "4.2.6-9" },
    };
    await writeReproPack(join(root, "with"), { ...info, structureTools: versions });
    assert.deepEqual(
      JSON.parse(
        await readFile(join(root, "with", "repro_pack", "environment", "structure-tools.json"), "utf8"),
      ),
      versions,
    );
    await writeReproPack(join(root, "without"), { ...info, structureTools: null });
    await assert.rejects(
      readFile(join(root, "without", "repro_pack", "environment", "structure-tools.json")),
    );
  });
});
