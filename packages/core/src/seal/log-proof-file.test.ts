import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { generateSigningKey, type SigningKey, type TrustedKey, toTrustedKey } from "../keys.ts";
import { logOriginOf, signCheckpoint } from "./log-checkpoint.ts";
import { issuedEntryOf } from "./log-entry.ts";
import {
  checkLogProofFile,
  checkLogProofPresence,
  formatLogProofFile,
  logProofOf,
} from "./log-proof-file.ts";
import { hashLeaf } from "./merkle-hash.ts";
import { makeSealFixture } from "./seal-fixture.ts";
import { parseSealPayload } from "./seal-payload.ts";
import { stateOfReason } from "./seal-reason-code.ts";

/** A one-leaf log proof for the fixture's seal, its checkpoint signed by `signer` under `origin`. */
function proofFile(signer?: SigningKey, origin?: string) {
  const fixture = makeSealFixture();
  const payload = parseSealPayload(JSON.parse(fixture.bundle.sealJson));
  const leaf = logProofOf(0, issuedEntryOf(fixture.bundle.sealJson, payload), [], "");
  const checkpoint = signCheckpoint(
    {
      origin: origin ?? logOriginOf(payload.issuer),
      size: 1,
      rootHash: hashLeaf(Buffer.from(leaf.entry, "utf8")),
    },
    signer ?? fixture.key,
  );
  const file = Buffer.from(formatLogProofFile({ ...leaf, checkpoint }));
  const check = (keys: readonly TrustedKey[]) =>
    checkLogProofFile(payload, Buffer.from(fixture.bundle.sealJson), file, keys).check;
  return { ...fixture, payload, check };
}

describe("checkLogProofFile opens checkpoints only for the seal's issuer (issue 38 item 2)", () => {
  it("passes a checkpoint the seal's key signed under the issuer's origin, the key pinned for that issuer", () => {
    const { key, payload, check } = proofFile();
    assert.equal(check([{ ...toTrustedKey(key.publicKey), issuer: payload.issuer }]).ok, true);
  });

  it("refuses a checkpoint under another origin (…/seal-log/v2), though signed by a trusted key", () => {
    const fixture = makeSealFixture();
    const payload = parseSealPayload(JSON.parse(fixture.bundle.sealJson));
    const { key, check } = proofFile(undefined, `${logOriginOf(payload.issuer)}/v2`);
    const result = check([toTrustedKey(key.publicKey)]);
    assert.equal(result.code, "LOG_PROOF_INVALID");
    assert.match(result.detail, /not of the seal's issuer's log/);
  });

  it("refuses a checkpoint signed by a key pinned for another issuer, or past its not_after", () => {
    const other = generateSigningKey();
    const { key, payload, check } = proofFile(other);
    const sealKey = toTrustedKey(key.publicKey);
    const forOther = { ...toTrustedKey(other.publicKey), issuer: "https://other.example" };
    assert.equal(check([sealKey, forOther]).code, "LOG_PROOF_INVALID");
    const expired = { ...toTrustedKey(other.publicKey), not_after: "2020-01-01T00:00:00Z" };
    assert.ok(Date.parse(payload.issued_at) > Date.parse("2020-01-01T00:00:00Z"));
    assert.equal(check([sealKey, expired]).code, "LOG_PROOF_INVALID");
    assert.equal(
      check([sealKey, toTrustedKey(other.publicKey)]).ok,
      true,
      "the same key, unbounded, opens it",
    );
  });
});

describe("checkLogProofPresence: a logging issuer's seal carries its proof (issue 38 item 2)", () => {
  it("refuses a seal issued at or after its key's log_from without the file: LOG_PROOF_MISSING", () => {
    const { key, payload } = proofFile();
    const trusted = toTrustedKey(key.publicKey);
    const check = checkLogProofPresence(payload, [{ ...trusted, log_from: payload.issued_at }]);
    assert.equal(check?.code, "LOG_PROOF_MISSING");
    assert.equal(stateOfReason("LOG_PROOF_MISSING"), "LOG_PROOF_MISSING");
  });

  it("asks nothing of a seal issued before the log began, nor of a key that names no log", () => {
    const { key, payload } = proofFile();
    const trusted = toTrustedKey(key.publicKey);
    const later = new Date(Date.parse(payload.issued_at) + 1000).toISOString();
    assert.equal(checkLogProofPresence(payload, [{ ...trusted, log_from: later }]), null);
    assert.equal(checkLogProofPresence(payload, [trusted]), null);
    assert.equal(checkLogProofPresence(payload, [{ ...trusted, log_from: null }]), null);
  });
});
