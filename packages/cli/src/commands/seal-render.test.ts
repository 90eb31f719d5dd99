import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { exportPublicKeyPem, generateSigningKey, toTrustedKey, verifySealSvg } from "@svc/core";
import { issueCorpusSeals } from "@svc/testing";
import { optimize } from "svgo";
import { runCli } from "../program.ts";

const key = generateSigningKey();
const { genuine, decoy } = issueCorpusSeals(key);
let root: string;
let keyPath: string;

async function svc(...args: string[]) {
  let stdout = "";
  let stderr = "";
  const env = { HOME: root, XDG_CONFIG_HOME: join(root, "config") };
  const code = await runCli(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) }, env);
  return { code, stdout, stderr };
}

async function exists(path: string) {
  return stat(path).then(
    () => true,
    () => false,
  );
}

before(async () => {
  root = await mkdtemp(join(tmpdir(), "svc-render-"));
  keyPath = join(root, "issuer.pem");
  await writeFile(keyPath, exportPublicKeyPem(key.publicKey));
  await writeFile(join(root, "seal.json"), genuine.sealJson);
  await writeFile(join(root, "seal.sig"), genuine.sealSig);
});

after(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("svc seal render", () => {
  it("writes the canonical image again from an svgo-optimised copy, which then verifies", async () => {
    const optimized = join(root, "optimized.svg");
    await writeFile(optimized, optimize(genuine.sealSvg).data);
    assert.equal(verifySealSvg(await readFile(optimized), [toTrustedKey(key.publicKey)]).state, "INVALID");
    const out = join(root, "from-svg.svg");
    const result = await svc("seal", "render", optimized, "-o", out, "--key", keyPath);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.equal(await readFile(out, "utf8"), genuine.sealSvg);
  });

  it("writes the canonical image from seal.json and the seal.sig beside it", async () => {
    const out = join(root, "from-json.svg");
    const result = await svc("seal", "render", join(root, "seal.json"), "-o", out, "--key", keyPath);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, new RegExp(`canonical image of ${genuine.payload.seal_id}`));
    assert.equal(await readFile(out, "utf8"), genuine.sealSvg);
  });

  it("writes nothing for a seal signed by a key you do not trust (exit 3)", async () => {
    const source = join(root, "decoy.svg");
    await writeFile(source, decoy.sealSvg);
    const out = join(root, "untrusted.svg");
    const result = await svc("seal", "render", source, "-o", out, "--key", keyPath);
    assert.equal(result.code, 3, result.stdout);
    assert.match(result.stdout, /not rendered: .* is UNVERIFIED \(KEY_UNTRUSTED/);
    assert.equal(await exists(out), false);
  });

  it("writes nothing when seal.json is edited, naming the file (exit 1 or 2, never a file)", async () => {
    const edited = join(root, "edited", "seal.json");
    await rm(join(root, "edited"), { recursive: true, force: true });
    await import("node:fs/promises").then((fs) => fs.mkdir(join(root, "edited")));
    await writeFile(edited, genuine.sealJson.replace("demo-project", "acme-project"));
    await writeFile(join(root, "edited", "seal.sig"), genuine.sealSig);
    const out = join(root, "edited.svg");
    const result = await svc("seal", "render", edited, "-o", out, "--key", keyPath);
    assert.equal(result.code, 1, result.stdout + result.stderr);
    assert.match(result.stdout, /SIGNATURE_INVALID/);
    assert.equal(await exists(out), false);
  });

  it("writes nothing from a seal.sig with text inserted: it is read strictly, as verifiers read it (issue 23 item 10)", async () => {
    await rm(join(root, "sig"), { recursive: true, force: true });
    await import("node:fs/promises").then((fs) => fs.mkdir(join(root, "sig")));
    await writeFile(join(root, "sig", "seal.json"), genuine.sealJson);
    const line = genuine.sealSig.trimEnd();
    await writeFile(join(root, "sig", "seal.sig"), `${line.slice(0, 40)} ✔ ✔ ${line.slice(40)}\n`);
    const out = join(root, "sig.svg");
    const result = await svc("seal", "render", join(root, "sig", "seal.json"), "-o", out, "--key", keyPath);
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, /seal\.sig: not one line of standard base64 of a 64-byte signature/);
    assert.equal(await exists(out), false);
  });

  it("needs -o: a usage error (exit 2) otherwise", async () => {
    const result = await svc("seal", "render", join(root, "seal.json"), "--key", keyPath);
    assert.equal(result.code, 2);
  });
});
