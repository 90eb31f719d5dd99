import assert from "node:assert/strict";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import {
  exportPublicKeyPem,
  generateSigningKey,
  issueSealBundle,
  RELEASED_VERIFY_SCRIPT_SHA256,
  renderPresealSvg,
  type SealBundle,
  sha256Hex,
  toTrustedKey,
  VERIFY_SCRIPT,
  VERIFY_SCRIPT_PATH,
} from "@svc/core";
import {
  buildForgeryCorpus,
  issueCorpusSeals,
  prettyPrintSeal,
  RUN_FOLDER_FORGERIES,
  RUN_FOLDER_TAMPERING,
  type RunFolderTampering,
  writeSealedRunFolder,
} from "@svc/testing";
import { runCli } from "../program.ts";

const key = generateSigningKey();
let root: string;
let keyPath: string;
let keysJson: string;
let env: NodeJS.ProcessEnv;

/** The user's environment for these tests: an empty config home, no SVC_TRUSTED_KEYS. */
function userEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const { SVC_TRUSTED_KEYS: _ignored, ...rest } = process.env;
  return { ...rest, HOME: root, XDG_CONFIG_HOME: join(root, "config"), ...extra };
}

/**
 * `svc <args>` as bin/svc.ts runs it (runCli with the argv, both streams and the user's environment;
 * its result is the exit code), in this process: a process per command cost ~0.6 CPU-s of start-up
 * for each of this file's ~30 commands (issue 41 item 4).
 */
async function svc(args: string[], extraEnv: NodeJS.ProcessEnv = {}) {
  let stdout = "";
  let stderr = "";
  const code = await runCli(
    args,
    { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) },
    userEnv(extraEnv),
  );
  return { code, stdout, stderr };
}

async function svcInProcess(args: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await runCli(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) }, env);
  return { code, stdout, stderr };
}

async function sealedRun(name: string): Promise<{ runDir: string; bundle: SealBundle }> {
  const runDir = join(root, name);
  return { runDir, bundle: await writeSealedRunFolder(runDir, { key }) };
}

before(async () => {
  root = await mkdtemp(join(tmpdir(), "svc-cli-"));
  env = userEnv();
  keyPath = join(root, "issuer.pem");
  await writeFile(keyPath, exportPublicKeyPem(key.publicKey));
  keysJson = join(root, "keys.json");
  await writeFile(keysJson, JSON.stringify({ keys: [toTrustedKey(key.publicKey)] }));
});

after(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("svc seal verify", () => {
  it("exits 0 and prints VERIFIED with each check for a seal.svg and the issuer's key", async () => {
    const { runDir } = await sealedRun("plain");
    const { code, stdout } = await svc([
      "seal",
      "verify",
      join(runDir, "seal", "seal.svg"),
      "--key",
      keyPath,
    ]);
    assert.equal(code, 0, stdout);
    assert.match(stdout, /^VERIFIED /);
    assert.match(stdout, /trust: --key /);
    assert.match(stdout, /ok {3}canonical_image: equals the canonical rendering/);
    assert.match(stdout, /ok {3}ring_channel/);
    assert.match(stdout, /ok {3}barcode_channel/);
  });

  it("verifies a run folder: its seal files and its recomputed outputs and manifest", async () => {
    const { runDir } = await sealedRun("folder");
    const { code, stdout } = await svc(["seal", "verify", runDir, "--key", keyPath]);
    assert.equal(code, 0, stdout);
    assert.match(stdout, /ok {3}seal_files: seal\.json equals the payload/);
    assert.match(stdout, /ok {3}run_manifest: run_manifest\.json is the sealed one/);
    assert.match(stdout, /ok {3}run_outputs: \d+ files match outputs_sha256/);
  });

  it("never trusts the folder's own key: with no pinned key a run folder is UNVERIFIED (exit 3) with one line saying how to pin", async () => {
    const { runDir } = await sealedRun("unpinned");
    const { code, stdout } = await svc(["seal", "verify", runDir]);
    assert.equal(code, 3, stdout);
    assert.match(stdout, /^UNVERIFIED /);
    assert.match(stdout, /trust: none/);
    const hints = stdout.split("\n").filter((line) => line.includes("svc trust add --issuer"));
    assert.equal(hints.length, 1);
  });

  it("a lone seal.svg with no key anywhere is UNVERIFIED (exit 3), with the one line on pinning", async () => {
    const { runDir } = await sealedRun("lone");
    const { code, stdout, stderr } = await svc(["seal", "verify", join(runDir, "seal", "seal.svg")]);
    assert.equal(code, 3, stdout + stderr);
    assert.match(stdout, /^UNVERIFIED /);
    assert.match(stdout, /reason: KEY_UNTRUSTED/);
    assert.equal(stdout.split("\n").filter((line) => line.includes("svc trust add --issuer")).length, 1);
  });

  it("a fabricated seal signed by the folder's own key is never exit 0", async () => {
    const { runDir, bundle } = await sealedRun("fabricated");
    const forger = generateSigningKey();
    const fake = issueSealBundle({ ...bundle.payload, principal: "forger@example.com" }, forger);
    for (const [name, content] of Object.entries({
      "seal.svg": fake.sealSvg,
      "seal.json": fake.sealJson,
      "seal.sig": fake.sealSig,
      "public_key.pem": fake.publicKeyPem,
      "VERIFY.md": fake.verifyMd,
    })) {
      await writeFile(join(runDir, "seal", name), content);
    }
    // its payload names another principal than the sealed run_manifest.json: a definite mismatch
    // (issue 23 item 5), reported before the untrusted key
    assert.equal((await svc(["seal", "verify", runDir])).code, 1);
    const pinned = await svc(["seal", "verify", runDir, "--key", keyPath]);
    assert.equal(pinned.code, 1, pinned.stdout);
    assert.match(pinned.stdout, /reason: RUN_MANIFEST_MISMATCH: /);
    assert.match(pinned.stdout, /key_trusted: key ed25519:\w+ is not trusted/);
  });

  for (const kind of Object.keys(RUN_FOLDER_TAMPERING) as RunFolderTampering[]) {
    it(`a run folder with an ${kind} is INVALID (exit 1) and the differing files are named`, async () => {
      const { runDir } = await sealedRun(`tampered-${kind.replaceAll(" ", "-")}`);
      await RUN_FOLDER_TAMPERING[kind](runDir);
      const { code, stdout } = await svc(["seal", "verify", runDir, "--key", keyPath]);
      assert.equal(code, 1, stdout);
      assert.match(stdout, /^INVALID /);
      const expected = {
        "edited output": /RUN_OUTPUTS_CHANGED: .*changed results\/metrics\.json/,
        "edited manifest": /RUN_MANIFEST_CHANGED: run_manifest: run_manifest\.json hashes to/,
        "deleted file": /RUN_OUTPUTS_CHANGED: .*deleted raw\/descriptors_raw\.json/,
        "added file": /RUN_OUTPUTS_CHANGED: .*added results\/extra\.json/,
        "rewritten expected-hashes list": /RUN_OUTPUTS_CHANGED: .*that list was rewritten after sealing too/,
      }[kind];
      assert.match(stdout, expected);
    });
  }

  for (const [name, forgery] of Object.entries(RUN_FOLDER_FORGERIES)) {
    it(`a run folder with ${name} is refused with ${forgery.code} (issue 23 items 2 and 3)`, async () => {
      const { runDir } = await sealedRun(`forged-${name.replace(/[^a-z0-9]+/gi, "-")}`);
      await forgery.apply(runDir);
      const { code, stdout, stderr } = await svc(["seal", "verify", runDir, "--key", keyPath, "--json"]);
      if (forgery.code === "FILE_NOT_FOUND") {
        assert.equal(code, 2, stdout + stderr);
        assert.match(stderr, /seal\/seal\.svg: no such file/);
        return;
      }
      assert.equal(code, 1, stdout + stderr);
      const result = JSON.parse(stdout) as { state: string; reason_code: string; reason: string };
      assert.equal(result.state, "INVALID");
      assert.equal(result.reason_code, forgery.code, result.reason);
    });
  }

  it("RUN_FOLDER_UNCOVERED names every uncovered path: scratch entries, empty folders, extra seal/ files", async () => {
    const { runDir } = await sealedRun("uncovered-all");
    await mkdir(join(runDir, ".scratch-0"));
    await writeFile(join(runDir, ".scratch-README.txt"), "x");
    await mkdir(join(runDir, "results", "ALL_34_CLEARED"), { recursive: true });
    await mkdir(join(runDir, "seal", "extra"));
    await writeFile(join(runDir, "seal", "CERTIFICATE.html"), "x");
    const { code, stdout } = await svc(["seal", "verify", runDir, "--key", keyPath]);
    assert.equal(code, 1, stdout);
    assert.match(stdout, /^INVALID /);
    assert.match(
      stdout,
      /RUN_FOLDER_UNCOVERED: run_coverage: not covered by the seal: \.scratch-0\/, \.scratch-README\.txt, results\/ALL_34_CLEARED\/, seal\/CERTIFICATE\.html, seal\/extra\//,
    );
  });

  it("a hidden file outside the scratch names is a hashed output: adding one is RUN_OUTPUTS_CHANGED", async () => {
    const { runDir } = await sealedRun("hidden");
    await writeFile(join(runDir, "results", ".NOTE.txt"), "the science is right\n");
    const { code, stdout } = await svc(["seal", "verify", runDir, "--key", keyPath]);
    assert.equal(code, 1, stdout);
    assert.match(stdout, /RUN_OUTPUTS_CHANGED: .*added results\/\.NOTE\.txt/);
  });

  it("a folder the issuer sealed with a verify.sh that is not the released one is VERIFY_SCRIPT_NOT_RELEASED", async () => {
    // The issuer signs the hashes the job reports (issue 23 item 5): the sealed hashes match.
    const runDir = join(root, "issuer-sealed-forged-script");
    await writeSealedRunFolder(runDir, {
      key,
      beforeSeal: async (dir) => {
        const script = VERIFY_SCRIPT.replace(
          "set -euo pipefail\n",
          'set -euo pipefail\necho "verify: OK"; exit 0\n',
        );
        await writeFile(join(dir, VERIFY_SCRIPT_PATH), script);
      },
    });
    const { code, stdout } = await svc(["seal", "verify", runDir, "--key", keyPath]);
    assert.equal(code, 1, stdout);
    assert.match(stdout, /ok {3}run_outputs: /);
    assert.match(
      stdout,
      /reason: VERIFY_SCRIPT_NOT_RELEASED: verify_script: repro_pack\/container\/verify\.sh \(sha256 [0-9a-f]{64}\) is not a verify\.sh the runner released/,
    );
  });

  it("a verified run folder reports its seal companions, its verify.sh and its coverage as checked", async () => {
    const { runDir } = await sealedRun("companions");
    const { code, stdout } = await svc(["seal", "verify", runDir, "--key", keyPath]);
    assert.equal(code, 0, stdout);
    assert.match(stdout, /ok {3}seal_files: VERIFY\.md and public_key\.pem are the issuer's/);
    assert.match(stdout, /ok {3}verify_script: repro_pack\/container\/verify\.sh is a released verify\.sh/);
    assert.match(stdout, /ok {3}run_coverage: the seal covers everything in the run folder/);
  });

  it("svc repro verify-script prints the released verify.sh, byte for byte", async () => {
    const { code, stdout } = await svcInProcess(["repro", "verify-script"]);
    assert.equal(code, 0);
    assert.equal(stdout, VERIFY_SCRIPT);
    assert.ok(RELEASED_VERIFY_SCRIPT_SHA256.includes(sha256Hex(stdout)));
  });

  it("a pre-seal folder is PRESEAL_UNSIGNED (exit 4, an unsigned claim) while its outputs match, INVALID once they change", async () => {
    const { runDir, bundle } = await sealedRun("preseal");
    const {
      seal_id: _id,
      principal: _p,
      barcode_digest: _b,
      issued_at: _i,
      issuer: _s,
      key_id: _k,
      verify_url: _v,
      attestation: _a,
      ...run
    } = bundle.payload;
    const preseal = {
      ...run,
      seal_version: "svc.preseal/v1" as const,
      created_at: "2026-11-23T12:00:00Z",
      reason: "run_complete_unreachable" as const,
    };
    await rm(join(runDir, "seal"), { recursive: true });
    await mkdir(join(runDir, "seal"));
    await writeFile(join(runDir, "seal", "preseal.json"), JSON.stringify(preseal));
    await writeFile(join(runDir, "seal", "preseal.svg"), renderPresealSvg(preseal));
    // keepSealedState's folder for `svc-runner seal` is part of a pre-seal, not uncovered.
    await mkdir(join(runDir, "seal", "pending"));
    await writeFile(join(runDir, "seal", "pending", "state.json"), "{}");
    const pending = await svc(["seal", "verify", runDir, "--key", keyPath]);
    assert.equal(pending.code, 4, pending.stdout);
    assert.match(pending.stdout, /^PRESEAL_UNSIGNED /);
    assert.match(pending.stdout, /reason: PRESEAL_UNSIGNED: pre-seal: an unsigned claim/);
    await RUN_FOLDER_TAMPERING["edited output"](runDir);
    const changed = await svc(["seal", "verify", runDir, "--key", keyPath]);
    assert.equal(changed.code, 1, changed.stdout);
    assert.match(changed.stdout, /RUN_OUTPUTS_CHANGED/);
  });

  it("a run folder whose sealed run_manifest.json names another principal is INVALID (exit 1) with RUN_MANIFEST_MISMATCH (issue 23 item 5)", async () => {
    // the forger seals a manifest of their choosing: its hash is right, what it says is not the payload
    const runDir = join(root, "manifest-mismatch");
    await writeSealedRunFolder(runDir, {
      key,
      beforeSeal: async (dir) => {
        const path = join(dir, "run_manifest.json");
        const manifest = JSON.parse(await readFile(path, "utf8"));
        manifest.entitlement.principal = "someone-else@example.com";
        await writeFile(path, JSON.stringify(manifest));
      },
    });
    const { code, stdout } = await svc(["seal", "verify", runDir, "--key", keyPath]);
    assert.equal(code, 1, stdout);
    assert.match(stdout, /^INVALID /);
    assert.match(stdout, /ok {3}run_manifest: run_manifest\.json is the sealed one/);
    assert.match(
      stdout,
      /reason: RUN_MANIFEST_MISMATCH: run_manifest_fields: run_manifest\.json: entitlement\.principal is "someone-else@example\.com", the seal says runner@customer\.example/,
    );
  });

  it("a run folder sealed with a claim strength its summary states is VERIFIED and says the signed claim (issue 37 item 3)", async () => {
    const runDir = join(root, "claim-agrees");
    await writeSealedRunFolder(runDir, { key, fields: { claim_strength: "HYPOTHESIS" } });
    const { code, stdout } = await svc(["seal", "verify", runDir, "--key", keyPath]);
    assert.equal(code, 0, stdout);
    assert.match(stdout, /^VERIFIED /);
    assert.match(stdout, /claim strength \(signed, as the job reported it\): HYPOTHESIS/);
    assert.match(stdout, /ok {3}claim_strength: results\/summary\.json states the signed HYPOTHESIS/);
  });

  it("a run folder whose summary says SUPPORTED under a HYPOTHESIS seal is INVALID (exit 1) with CLAIM_STRENGTH_MISMATCH, hashes all right (issue 37 item 3)", async () => {
    // the job reports HYPOTHESIS to the issuer but seals a summary that says SUPPORTED
    const runDir = join(root, "claim-differs");
    await writeSealedRunFolder(runDir, {
      key,
      fields: { claim_strength: "HYPOTHESIS" },
      beforeSeal: async (dir) => {
        const path = join(dir, "results/summary.json");
        await writeFile(path, (await readFile(path, "utf8")).replace('"HYPOTHESIS"', '"SUPPORTED"'));
      },
    });
    const { code, stdout } = await svc(["seal", "verify", runDir, "--key", keyPath]);
    assert.equal(code, 1, stdout);
    assert.match(stdout, /^INVALID /);
    assert.match(stdout, /ok {3}run_outputs: /);
    assert.match(
      stdout,
      /reason: CLAIM_STRENGTH_MISMATCH: claim_strength: results\/summary\.json says claim_strength "SUPPORTED", the seal says HYPOTHESIS/,
    );
  });

  it("exits 1 with SEAL_FILES_DISAGREE when seal.json disagrees with seal.svg", async () => {
    const { runDir, bundle } = await sealedRun("mismatch");
    await writeFile(join(runDir, "seal", "seal.json"), bundle.sealJson.replace("runner@", "evil@"));
    const { code, stdout } = await svc(["seal", "verify", runDir, "--key", keyPath]);
    assert.equal(code, 1);
    assert.match(stdout, /reason: SEAL_FILES_DISAGREE: seal_files: seal\.json differs/);
  });

  it("exits 1 with SEAL_SIG_MALFORMED when seal.sig has text inserted that a lenient base64 read skips (issue 23 item 10)", async () => {
    const { runDir, bundle } = await sealedRun("sig-inserted");
    const line = bundle.sealSig.trimEnd();
    await writeFile(join(runDir, "seal", "seal.sig"), `${line.slice(0, 40)} ✔ ✔ ${line.slice(40)}\n`);
    const { code, stdout } = await svc(["seal", "verify", runDir, "--key", keyPath]);
    assert.equal(code, 1, stdout);
    assert.match(
      stdout,
      /reason: SEAL_SIG_MALFORMED: seal_files: seal\.sig is not one line of standard base64/,
    );
  });

  it("exits 1 (INVALID, RUN_OUTPUTS_CHANGED), not 5, for a run folder holding a file name that is not UTF-8 (issue 23 item 10)", async () => {
    const { runDir } = await sealedRun("non-utf8-name");
    const name = Buffer.concat([
      Buffer.from(`${runDir}/results/findings-`),
      Buffer.from([0xff]),
      Buffer.from(".txt"),
    ]);
    await writeFile(name, "edited findings\n");
    const { code, stdout, stderr } = await svc(["seal", "verify", runDir, "--key", keyPath, "--json"]);
    assert.equal(code, 1, stdout + stderr);
    const parsed = JSON.parse(stdout);
    assert.equal(parsed.state, "INVALID");
    assert.equal(parsed.reason_code, "RUN_OUTPUTS_CHANGED");
    assert.match(parsed.reason, /results\/findings-\\xff\.txt: a file name that is not UTF-8/);
  });

  it("accepts the key set served by GET /api/seal/keys and prints JSON with the reason code", async () => {
    const { runDir, bundle } = await sealedRun("json");
    const { code, stdout } = await svc(["seal", "verify", runDir, "--keys", keysJson, "--json"]);
    assert.equal(code, 0);
    const parsed = JSON.parse(stdout);
    assert.equal(parsed.state, "VERIFIED");
    assert.equal(parsed.reason_code, null);
    assert.equal(parsed.payload.seal_id, bundle.payload.seal_id);
    assert.deepEqual(parsed.trust, [`--keys ${keysJson}`]);
  });

  it("with two issuers pinned, issuer B's seal naming issuer A is INVALID (exit 1) with ISSUER_MISMATCH (issue 23 item 8)", async () => {
    const { fields } = await sealedRun("two-issuers").then(({ bundle }) => ({ fields: bundle.payload }));
    const { seal_version: _v, key_id: _k, barcode_digest: _b, ...unsigned } = fields;
    const keyB = generateSigningKey();
    const trustFile = join(root, "two-issuers.json");
    await writeFile(
      trustFile,
      JSON.stringify({
        keys: [
          { ...toTrustedKey(key.publicKey), issuer: fields.issuer },
          { ...toTrustedKey(keyB.publicKey), issuer: "https://issuer-b.example" },
        ],
      }),
    );
    const ownSeal = join(root, "b-own.svg");
    await writeFile(
      ownSeal,
      issueSealBundle({ ...unsigned, issuer: "https://issuer-b.example" }, keyB).sealSvg,
    );
    assert.equal(
      (await svc(["seal", "verify", ownSeal, "--keys", trustFile])).code,
      0,
      "B's own seal verifies",
    );
    const forged = join(root, "b-naming-a.svg");
    await writeFile(
      forged,
      issueSealBundle({ ...unsigned, seal_id: `seal_${"b".repeat(32)}` }, keyB).sealSvg,
    );
    const result = await svc(["seal", "verify", forged, "--keys", trustFile]);
    assert.equal(result.code, 1, result.stdout);
    assert.match(result.stdout, /^INVALID /);
    assert.match(
      result.stdout,
      /reason: ISSUER_MISMATCH: key_trusted: key ed25519:[0-9a-f]{32} is pinned for https:\/\/issuer-b\.example/,
    );
  });

  it("shows how the run was paid: a rerun seal names its origin seal and is not redeemable (text and --json)", async () => {
    const { runDir, bundle } = await sealedRun("funded");
    const rerun = issueSealBundle(
      {
        ...bundle.payload,
        seal_id: `seal_${"e".repeat(32)}`,
        funding: "rerun",
        rerun_of: bundle.payload.seal_id,
      },
      key,
    );
    const rerunSvg = join(root, "rerun-seal.svg");
    await writeFile(rerunSvg, rerun.sealSvg);
    const text = await svc(["seal", "verify", rerunSvg, "--key", keyPath]);
    assert.equal(text.code, 0, text.stdout);
    assert.match(
      text.stdout,
      new RegExp(
        `\\n {2}funding: rerun, paid by redeeming seal ${bundle.payload.seal_id}; this seal cannot be redeemed\\n`,
      ),
    );
    const json = JSON.parse((await svc(["seal", "verify", rerunSvg, "--key", keyPath, "--json"])).stdout);
    assert.deepEqual(json.funding, { kind: "rerun", rerun_of: bundle.payload.seal_id, redeemable: false });
    assert.equal(json.payload.rerun_of, bundle.payload.seal_id);
    const purchased = await svc([
      "seal",
      "verify",
      join(runDir, "seal", "seal.svg"),
      "--key",
      keyPath,
      "--json",
    ]);
    assert.deepEqual(JSON.parse(purchased.stdout).funding, {
      kind: "purchased",
      rerun_of: null,
      redeemable: true,
    });
    assert.match(
      (await svc(["seal", "verify", join(runDir, "seal", "seal.svg"), "--key", keyPath])).stdout,
      /\n {2}funding: purchased run\n/,
    );
  });

  it("exits 2 naming the path when the target does not exist or the key is not a key", async () => {
    const missing = await svc(["seal", "verify", join(root, "nope.svg"), "--key", keyPath]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /nope\.svg: no such file/);
    const notKey = join(root, "not-a-key.pem");
    await writeFile(notKey, "hello");
    const { runDir } = await sealedRun("bad-key");
    const bad = await svc(["seal", "verify", runDir, "--key", notKey]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /not-a-key\.pem: public key is not a readable SPKI PEM/);
  });
});

describe("svc trust", () => {
  it("trust add pins a key in the user's config; seal verify then trusts it; trust list shows it", async () => {
    const home = await mkdtemp(join(root, "home-"));
    const userConfig = { XDG_CONFIG_HOME: join(home, "config") };
    const added = await svc(["trust", "add", keyPath], userConfig);
    assert.equal(added.code, 0, added.stderr);
    assert.match(added.stdout, new RegExp(`trusted ${key.keyId}`));
    assert.match(added.stdout, /config\/svc\/trusted-keys\.json/);
    const listed = await svc(["trust", "list"], userConfig);
    assert.match(listed.stdout, new RegExp(key.keyId));
    const { runDir } = await sealedRun("pinned");
    const verified = await svc(["seal", "verify", runDir], userConfig);
    assert.equal(verified.code, 0, verified.stdout);
    assert.match(verified.stdout, /trust: trust file .*trusted-keys\.json \(1 keys\)/);
  });

  it("SVC_TRUSTED_KEYS names the trust file; a missing one is a one-line error (exit 2)", async () => {
    const { runDir } = await sealedRun("env-trust");
    assert.equal((await svc(["seal", "verify", runDir], { SVC_TRUSTED_KEYS: keysJson })).code, 0);
    const missing = await svc(["seal", "verify", runDir], { SVC_TRUSTED_KEYS: join(root, "absent.json") });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /absent\.json: no such file/);
  });

  it("trust add refuses a keys file entry whose key id is not its key's", async () => {
    const wrong = join(root, "wrong-keys.json");
    const other = toTrustedKey(generateSigningKey().publicKey);
    await writeFile(
      wrong,
      JSON.stringify({ keys: [{ ...toTrustedKey(key.publicKey), key_id: other.key_id }] }),
    );
    const { runDir } = await sealedRun("wrong-keys");
    const result = await svc(["seal", "verify", runDir, "--keys", wrong]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /is not the id of its key/);
  });
});

describe("svc seal verify over the forgery corpus", () => {
  const seals = issueCorpusSeals(key);
  const corpus = buildForgeryCorpus({ genuine: seals.genuine.sealSvg, decoy: seals.decoy.sealSvg });

  it("says VERIFIED for the genuine seal, fresh and pretty-printed", async () => {
    for (const svg of [seals.genuine.sealSvg, prettyPrintSeal(seals.genuine.sealSvg)]) {
      const path = join(root, "genuine.svg");
      await writeFile(path, svg);
      const result = await svcInProcess(["seal", "verify", path, "--key", keyPath, "--json"]);
      assert.equal(result.code, 0, result.stdout);
    }
  });

  for (const [index, forgery] of corpus.entries()) {
    it(`${forgery.name}: INVALID (exit 1) with ${forgery.code}`, async () => {
      const path = join(root, `forgery-${index}.svg`);
      await writeFile(path, forgery.svg);
      const result = await svcInProcess(["seal", "verify", path, "--key", keyPath, "--json"]);
      assert.equal(result.code, 1, result.stdout + result.stderr);
      const parsed = JSON.parse(result.stdout);
      assert.equal(parsed.state, "INVALID");
      assert.equal(parsed.reason_code, forgery.code);
    });
  }
});
