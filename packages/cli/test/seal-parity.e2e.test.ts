import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import {
  CLAIM_LINE_LABELS,
  exportPublicKeyPem,
  generateSigningKey,
  stateOfReason,
  VERIFY_SCRIPT,
} from "@svc/core";
import { SEAL_PARITY_CORPUS, writeParityFolder } from "@svc/testing";
import { EXIT_BY_STATE } from "../src/commands/seal-verify.ts";
import { runCli } from "../src/program.ts";

// issue 38 item 7: one table of cases, each run against both verifiers, svc seal verify and the
// released verify.sh; both must refuse with the same reason code, or both accept.
const key = generateSigningKey();
let root: string;
let keyPath: string;
let scriptPath: string;

/**
 * `svc seal verify` as bin/svc.ts runs it (runCli with the argv, both streams and an environment;
 * its result is the exit code), in this process: a process per case cost ~0.6 CPU-s of start-up
 * alone (issue 41 item 4). Stdout then stderr, as the spawned streams were read.
 */
async function svc(runDir: string) {
  const { SVC_TRUSTED_KEYS: _unset, ...rest } = process.env;
  const env = { ...rest, HOME: root, XDG_CONFIG_HOME: join(root, "config") };
  const started = performance.now();
  let stdout = "";
  let stderr = "";
  const code = await runCli(
    ["seal", "verify", runDir, "--key", keyPath],
    { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) },
    env,
  );
  return { code, out: `${stdout}${stderr}`, ms: performance.now() - started };
}

function verifySh(runDir: string) {
  const started = performance.now();
  const result = spawnSync("bash", [scriptPath, "--key", keyPath, runDir], { encoding: "utf8" });
  return { code: result.status, out: `${result.stdout}${result.stderr}`, ms: performance.now() - started };
}

before(async () => {
  root = await mkdtemp(join(tmpdir(), "svc-parity-"));
  keyPath = join(root, "issuer.pem");
  await writeFile(keyPath, exportPublicKeyPem(key.publicKey));
  // the auditor's known-good copy, outside the folders it checks
  scriptPath = join(root, "verify.sh");
  await writeFile(scriptPath, VERIFY_SCRIPT);
});

after(() => rm(root, { recursive: true, force: true }));

describe("svc seal verify and verify.sh agree on every case of the parity corpus (issue 38 items 7, 8)", () => {
  for (const [index, parity] of SEAL_PARITY_CORPUS.entries()) {
    const expected = parity.code === null ? "both VERIFIED / OK" : `both refuse with ${parity.code}`;
    it(`${parity.name}: ${expected}`, async () => {
      const runDir = join(root, `case-${index}`);
      await writeParityFolder(runDir, key, parity.beforeSeal, parity.signed);
      await parity.apply?.(runDir, key);
      const bySvc = await svc(runDir);
      const bySh = verifySh(runDir);
      if (parity.code === null) {
        assert.equal(bySvc.code, 0, bySvc.out);
        assert.match(bySvc.out, /^VERIFIED/);
        assert.equal(bySh.code, 0, bySh.out);
        assert.match(bySh.out, /verify: OK/);
        assert.doesNotMatch(bySh.out, /WARNING, seal\/VERIFY\.md not checked/);
        // issue 37 item 3: a seal that signs a claim strength draws it, and both say so
        if (parity.signed?.claim_strength) {
          const svg = await readFile(join(runDir, "seal/seal.svg"), "utf8");
          assert.match(svg, new RegExp(`y="401"[^>]*>${CLAIM_LINE_LABELS[parity.signed.claim_strength]}<`));
          assert.match(
            bySvc.out,
            new RegExp(
              `claim strength \\(signed, as the job reported it\\): ${parity.signed.claim_strength}`,
            ),
          );
          assert.match(bySvc.out, /ok {3}claim_strength: /);
        }
        return;
      }
      // svc's exit is its state's (LOG_PROOF_INVALID 9, INVALID 1); verify.sh exits 1 for every failure
      assert.equal(bySvc.code, EXIT_BY_STATE[stateOfReason(parity.code)], bySvc.out);
      assert.match(bySvc.out, new RegExp(`reason: ${parity.code}:`), bySvc.out);
      assert.equal(bySh.code, 1, bySh.out);
      assert.match(bySh.out, /verify: FAILED/);
      assert.match(bySh.out, new RegExp(`\\(${parity.code}\\)`), bySh.out);
      // item 8: a file over its cap is refused from its size, not read (the 48 MiB envelope cost verify.sh 108 s)
      if (parity.code === "SEAL_FILE_TOO_LARGE") {
        assert.ok(bySvc.ms < 10_000, `svc took ${bySvc.ms} ms`);
        assert.ok(bySh.ms < 10_000, `verify.sh took ${bySh.ms} ms`);
      }
    });
  }
});
