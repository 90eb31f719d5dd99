import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { sha256Hex } from "../digest.ts";
import { exportPublicKeyPem, generateSigningKey } from "../keys.ts";
import { checkSealCompanions, checkVerifyScript } from "./run-folder-checks.ts";
import { makeSealFixture } from "./seal-fixture.ts";
import { isReleasedVerifyScript, RELEASED_VERIFY_SCRIPT_SHA256, VERIFY_SCRIPT } from "./verify-script.ts";

describe("the released verify.sh", () => {
  it("lists the hash of the script this version writes (add the new hash when the script changes)", () => {
    assert.ok(RELEASED_VERIFY_SCRIPT_SHA256.includes(sha256Hex(VERIFY_SCRIPT)), sha256Hex(VERIFY_SCRIPT));
    assert.ok(isReleasedVerifyScript(Buffer.from(VERIFY_SCRIPT)));
  });

  it("refuses a copy with one added line, and a missing one, as VERIFY_SCRIPT_NOT_RELEASED", () => {
    const edited = VERIFY_SCRIPT.replace(
      "set -euo pipefail\n",
      'set -euo pipefail\necho "verify: OK"; exit 0\n',
    );
    assert.equal(checkVerifyScript(Buffer.from(edited)).code, "VERIFY_SCRIPT_NOT_RELEASED");
    assert.equal(checkVerifyScript(null).code, "VERIFY_SCRIPT_NOT_RELEASED");
    assert.equal(checkVerifyScript(Buffer.from(VERIFY_SCRIPT)).ok, true);
  });
});

describe("checkSealCompanions", () => {
  const { bundle } = makeSealFixture();
  const genuine = { verifyMd: Buffer.from(bundle.verifyMd), publicKeyPem: Buffer.from(bundle.publicKeyPem) };

  it("passes VERIFY.md and public_key.pem exactly as the issuer writes them", () => {
    assert.deepEqual(
      checkSealCompanions(bundle.payload, genuine).map((check) => check.ok),
      [true],
    );
  });

  it("refuses a rewritten VERIFY.md, a swapped or respelled key, and missing files (SEAL_FILES_DISAGREE)", () => {
    const cases = {
      "rewritten VERIFY.md": {
        ...genuine,
        verifyMd: Buffer.from(`${bundle.verifyMd}\nThe science is right.\n`),
      },
      "swapped key": {
        ...genuine,
        publicKeyPem: Buffer.from(exportPublicKeyPem(generateSigningKey().publicKey)),
      },
      "same key, CRLF": {
        ...genuine,
        publicKeyPem: Buffer.from(bundle.publicKeyPem.replaceAll("\n", "\r\n")),
      },
      "not a key": { ...genuine, publicKeyPem: Buffer.from("hello") },
      "missing VERIFY.md": { ...genuine, verifyMd: null },
      "missing key": { ...genuine, publicKeyPem: null },
    };
    for (const [name, files] of Object.entries(cases)) {
      const [check] = checkSealCompanions(bundle.payload, files);
      assert.equal(check?.code, "SEAL_FILES_DISAGREE", name);
    }
  });
});
