import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { generateSigningKey, issueSealBundle, type SealBundle, sha256Hex, toTrustedKey } from "@svc/core";

const bin = join(import.meta.dirname, "..", "..", "bin", "svc.ts");
let root: string;
let runDir: string;
let bundle: SealBundle;
let keyPath: string;

function svc(...args: string[]) {
  const result = spawnSync(process.execPath, [bin, ...args], { encoding: "utf8" });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

async function writeSealFolder(dir: string, files: Partial<Record<string, string>>) {
  await mkdir(join(dir, "seal"), { recursive: true });
  for (const [name, content] of Object.entries(files)) {
    if (content !== undefined) await writeFile(join(dir, "seal", name), content);
  }
}

before(async () => {
  root = await mkdtemp(join(tmpdir(), "svc-cli-"));
  const key = generateSigningKey();
  bundle = issueSealBundle(
    {
      seal_id: "seal_abcdefabcdefabcdefabcdefabcdefab",
      principal: "demo@example.com",
      run_id: "run_20261121T120000Z",
      project_id: "demo",
      mode: "standard",
      module_id: "computational",
      category_id: "SMALL_MOLECULE__LIGAND_ONLY__NO_STRUCTURE__NO_ASSAYS",
      image: { reference: "runner:1.0.0", digest: null },
      inputs_sha256: sha256Hex("i"),
      run_manifest_sha256: sha256Hex("m"),
      outputs_sha256: sha256Hex("o"),
      issued_at: "2026-11-21T12:00:00Z",
      issuer: "http://127.0.0.1:8080",
      verify_url: null,
    },
    key,
  );
  runDir = join(root, "run");
  await writeSealFolder(runDir, {
    "seal.svg": bundle.sealSvg,
    "seal.json": bundle.sealJson,
    "seal.sig": bundle.sealSig,
    "public_key.pem": bundle.publicKeyPem,
    "VERIFY.md": bundle.verifyMd,
  });
  keyPath = join(root, "published.pem");
  await writeFile(keyPath, bundle.publicKeyPem);
  await writeFile(join(root, "keys.json"), JSON.stringify({ keys: [toTrustedKey(key.publicKey)] }));
});

after(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("svc seal verify", () => {
  it("exits 0 and prints VERIFIED with each check for a seal.svg and its published key", () => {
    const { code, stdout } = svc("seal", "verify", join(runDir, "seal", "seal.svg"), "--key", keyPath);
    assert.equal(code, 0, stdout);
    assert.match(stdout, /^VERIFIED /);
    assert.match(stdout, /ok {3}ring_channel/);
    assert.match(stdout, /ok {3}barcode_channel/);
  });

  it("verifies a run output directory from its seal/ folder and says it trusted the folder's key", () => {
    const { code, stdout } = svc("seal", "verify", runDir);
    assert.equal(code, 0, stdout);
    assert.match(stdout, /seal\.json equals the payload/);
    assert.match(stdout, /note: trusting seal\/public_key\.pem/);
  });

  it("accepts the key set served by GET /api/seal/keys and prints JSON", () => {
    const { code, stdout } = svc("seal", "verify", runDir, "--keys", join(root, "keys.json"), "--json");
    assert.equal(code, 0);
    const parsed = JSON.parse(stdout);
    assert.equal(parsed.state, "VERIFIED");
    assert.equal(parsed.payload.seal_id, bundle.payload.seal_id);
  });

  it("exits 1 with the reason when seal.json disagrees with seal.svg", async () => {
    const dir = join(root, "mismatch");
    await writeSealFolder(dir, {
      "seal.svg": bundle.sealSvg,
      "seal.json": bundle.sealJson.replace("demo@example.com", "evil@example.com"),
      "seal.sig": bundle.sealSig,
      "public_key.pem": bundle.publicKeyPem,
    });
    const { code, stdout } = svc("seal", "verify", dir);
    assert.equal(code, 1);
    assert.match(stdout, /^INVALID /);
    assert.match(stdout, /seal\.json differs from the payload in seal\.svg/);
  });

  it("exits 1 when seal.sig disagrees with the signature in seal.svg", async () => {
    const dir = join(root, "sig-mismatch");
    await writeSealFolder(dir, {
      "seal.svg": bundle.sealSvg,
      "seal.json": bundle.sealJson,
      "seal.sig": `${Buffer.alloc(64, 7).toString("base64")}\n`,
      "public_key.pem": bundle.publicKeyPem,
    });
    const { code, stdout } = svc("seal", "verify", dir);
    assert.equal(code, 1);
    assert.match(stdout, /seal\.sig differs/);
  });

  it("exits 1 for a tampered seal.svg", async () => {
    const path = join(root, "tampered.svg");
    await writeFile(path, bundle.sealSvg.replace(/<path d="[^"]*"\/>\n/, ""));
    const { code, stdout } = svc("seal", "verify", path, "--key", keyPath);
    assert.equal(code, 1);
    assert.match(stdout, /FAIL canonical_image: \/svg\[1\]\/g\[1\]\/path\[1\]/);
  });

  it("exits 3 (UNVERIFIED) when the seal was signed by a key the user does not trust", async () => {
    const other = join(root, "other.pem");
    const { exportPublicKeyPem } = await import("@svc/core");
    await writeFile(other, exportPublicKeyPem(generateSigningKey().publicKey));
    const { code, stdout } = svc("seal", "verify", join(runDir, "seal", "seal.svg"), "--key", other);
    assert.equal(code, 3);
    assert.match(stdout, /^UNVERIFIED /);
  });

  it("exits 2 with one line saying what to do when a lone seal.svg comes without a key", () => {
    const { code, stderr } = svc("seal", "verify", join(runDir, "seal", "seal.svg"));
    assert.equal(code, 2);
    assert.equal(stderr.trim().split("\n").length, 1);
    assert.match(stderr, /pass --key/);
  });

  it("exits 2 naming the path when the target does not exist or the key is not a key", async () => {
    const missing = svc("seal", "verify", join(root, "nope.svg"), "--key", keyPath);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /nope\.svg: no such file/);
    const notKey = join(root, "not-a-key.pem");
    await writeFile(notKey, "hello");
    const bad = svc("seal", "verify", join(runDir, "seal", "seal.svg"), "--key", notKey);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /not-a-key\.pem: public key is not a readable SPKI PEM/);
  });
});
