import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { canonicalBytes } from "../canonical-json.ts";
import { generateSigningKey, toTrustedKey } from "../keys.ts";
import { type DsseEnvelope, openDsseEnvelope, preAuthEncoding, signDsseEnvelope } from "./dsse-envelope.ts";
import { checkProvenanceFile } from "./provenance-file.ts";
import {
  buildProvenanceStatement,
  formatProvenanceLine,
  IN_TOTO_PAYLOAD_TYPE,
  type ProvenanceFacts,
  provenanceDisagreement,
  signProvenanceFile,
  treeListingSha256,
} from "./provenance-statement.ts";
import { makeSealFixture } from "./seal-fixture.ts";
import { parseSealPayload } from "./seal-payload.ts";

const outputs = [
  { path: "results/summary.json", sha256: "a".repeat(64) },
  { path: "run_manifest.json", sha256: "b".repeat(64) },
];
const inputs = [{ path: "compounds.csv", sha256: "c".repeat(64) }];
const facts: ProvenanceFacts = {
  outputs,
  inputs,
  policy_version: "policy-2026.1",
  modules: [{ module_id: "molecular_logic", version: "1.2.0" }],
  runner_version: "0.1.0",
};

function sealed() {
  const fixture = makeSealFixture({
    outputs_sha256: treeListingSha256(outputs),
    inputs_sha256: treeListingSha256(inputs),
  });
  const payload = parseSealPayload(JSON.parse(fixture.bundle.sealJson));
  return { ...fixture, payload };
}

function reline(file: string, change: (envelope: DsseEnvelope) => DsseEnvelope): Buffer {
  return Buffer.from(formatProvenanceLine(change(JSON.parse(file) as DsseEnvelope)));
}

describe("signed SLSA provenance (issue 30 item 6)", () => {
  it("DSSE PAE is the spec's encoding: DSSEv1, byte lengths, type and body", () => {
    // github.com/secure-systems-lab/dsse protocol.md test vector
    assert.equal(
      preAuthEncoding("http://example.com/HelloWorld", Buffer.from("hello world")).toString(),
      "DSSEv1 29 http://example.com/HelloWorld 11 hello world",
    );
  });

  it("the statement names the sealed outputs as subjects and the seal's run facts, and verifies", () => {
    const { payload, key, trusted } = sealed();
    const statement = buildProvenanceStatement(payload, facts, "2026-11-21T10:15:00Z");
    assert.deepEqual(
      statement.subject.map((subject) => [subject.name, subject.digest.sha256]),
      outputs.map((file) => [file.path, file.sha256]),
    );
    assert.deepEqual(statement.predicate.buildDefinition.externalParameters, {
      project: payload.project_id,
      mode: payload.mode,
      category: payload.category_id,
      policy_version: "policy-2026.1",
    });
    assert.equal(statement.predicate.runDetails.metadata.finishedOn, payload.issued_at);
    const file = signProvenanceFile(statement, key);
    assert.equal(file.split("\n").length, 2, "one envelope, one line");
    const envelope = JSON.parse(file) as DsseEnvelope;
    assert.equal(envelope.payloadType, IN_TOTO_PAYLOAD_TYPE);
    assert.equal(envelope.signatures[0]?.keyid, payload.key_id);
    const opened = openDsseEnvelope(envelope, payload.key_id, trusted);
    assert.ok("payload" in opened && opened.payload.equals(canonicalBytes(statement)));
    const check = checkProvenanceFile(payload, Buffer.from(file), trusted);
    assert.equal(check.ok, true, check.detail);
  });

  it("the issuer refuses facts whose outputs or inputs are not the sealed hashes", () => {
    const { payload } = sealed();
    assert.equal(provenanceDisagreement(payload, facts), null);
    const dropped = { ...facts, outputs: outputs.slice(1) };
    assert.match(provenanceDisagreement(payload, dropped) ?? "", /outputs_sha256/);
    const otherInput = { ...facts, inputs: [{ path: "other.csv", sha256: "c".repeat(64) }] };
    assert.match(provenanceDisagreement(payload, otherInput) ?? "", /inputs_sha256/);
  });

  it("refuses a re-signed statement whose subjects are not the sealed outputs: PROVENANCE_INVALID", () => {
    const { payload, key, trusted } = sealed();
    const forged = buildProvenanceStatement(
      payload,
      { ...facts, outputs: outputs.slice(1) },
      "2026-11-21T10:15:00Z",
    );
    const check = checkProvenanceFile(payload, Buffer.from(signProvenanceFile(forged, key)), trusted);
    assert.equal(check.code, "PROVENANCE_INVALID");
    assert.match(check.detail, /outputs_sha256/);
  });

  it("refuses a statement that changes a fact of the seal, though signed by the seal's key", () => {
    const { payload, key, trusted } = sealed();
    const statement = buildProvenanceStatement(payload, facts, "2026-11-21T10:15:00Z");
    const other = {
      ...statement,
      predicate: {
        ...statement.predicate,
        buildDefinition: {
          ...statement.predicate.buildDefinition,
          externalParameters: {
            ...statement.predicate.buildDefinition.externalParameters,
            project: "elsewhere",
          },
        },
      },
    };
    const check = checkProvenanceFile(payload, Buffer.from(signProvenanceFile(other, key)), trusted);
    assert.equal(check.code, "PROVENANCE_INVALID");
  });

  it("refuses a tampered payload, a tampered signature, another type and another signer", () => {
    const { payload, key, trusted } = sealed();
    const file = signProvenanceFile(buildProvenanceStatement(payload, facts, "2026-11-21T10:15:00Z"), key);
    const tamperedPayload = reline(file, (envelope) => {
      const text = Buffer.from(envelope.payload, "base64").toString().replace("a".repeat(64), "d".repeat(64));
      return { ...envelope, payload: Buffer.from(text).toString("base64") };
    });
    const tamperedSig = reline(file, (envelope) => {
      const sig = Buffer.from(envelope.signatures[0]?.sig ?? "", "base64");
      sig[0] = (sig[0] ?? 0) ^ 1;
      return { ...envelope, signatures: [{ keyid: payload.key_id, sig: sig.toString("base64") }] };
    });
    const otherType = reline(file, (envelope) => ({ ...envelope, payloadType: "application/json" }));
    const stranger = generateSigningKey();
    const otherSigner = Buffer.from(
      formatProvenanceLine(
        signDsseEnvelope(
          IN_TOTO_PAYLOAD_TYPE,
          canonicalBytes(buildProvenanceStatement(payload, facts, "2026-11-21T10:15:00Z")),
          stranger,
        ),
      ),
    );
    for (const [name, bytes] of [
      ["payload", tamperedPayload],
      ["signature", tamperedSig],
      ["type", otherType],
      ["signer", otherSigner],
      ["reformatted", Buffer.from(`${JSON.stringify(JSON.parse(file), null, 1).replaceAll("\n", "")}\n`)],
      ["truncated", Buffer.from(file.slice(0, -1))],
    ] as const) {
      const check = checkProvenanceFile(payload, bytes, [...trusted, toTrustedKey(stranger.publicKey)]);
      assert.equal(check.code, "PROVENANCE_INVALID", `${name}: ${check.detail}`);
    }
  });

  it("with no trusted key at all it is the seal's KEY_UNTRUSTED, not a forgery", () => {
    const { payload, key } = sealed();
    const file = signProvenanceFile(buildProvenanceStatement(payload, facts, "2026-11-21T10:15:00Z"), key);
    assert.equal(checkProvenanceFile(payload, Buffer.from(file), []).code, "KEY_UNTRUSTED");
  });
});

describe("seal/provenance.intoto.jsonl has one byte version, and a large one is answered (issue 38 items 7, 8)", () => {
  function genuine() {
    const fixture = sealed();
    const file = signProvenanceFile(
      buildProvenanceStatement(fixture.payload, facts, "2026-11-21T10:15:00Z"),
      fixture.key,
    );
    return { ...fixture, file };
  }

  it("an 8 MiB provenance payload is PROVENANCE_INVALID, not a 'Maximum call stack size exceeded' crash", () => {
    const { payload, trusted, key } = genuine();
    const statement = Buffer.from(`{"pad":"${"x".repeat(8 * 1024 * 1024)}"}`);
    const file = Buffer.from(formatProvenanceLine(signDsseEnvelope(IN_TOTO_PAYLOAD_TYPE, statement, key)));
    const check = checkProvenanceFile(payload, file, trusted);
    assert.equal(check.code, "PROVENANCE_INVALID", check.detail);
  });

  it("refuses a duplicated envelope line, an extra signature by an unknown key, a bad signature with the seal's key id placed first, and pad bits set", () => {
    const { payload, trusted, file } = genuine();
    const other = generateSigningKey();
    const envelope = JSON.parse(file) as DsseEnvelope;
    const [signature] = envelope.signatures;
    assert.ok(signature !== undefined);
    const flip = (text: string) => {
      // the last character before the padding carries unused bits: set one, the bytes stay the same
      const at = text.length - 1 - (text.endsWith("==") ? 2 : 1);
      const value = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".indexOf(
        text[at] as string,
      );
      const next = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"[value + 1] as string;
      return `${text.slice(0, at)}${next}${text.slice(at + 1)}`;
    };
    const cases: Record<string, Buffer> = {
      "duplicated envelope line": Buffer.from(`${file}${file}`),
      "extra signature by an unknown key": reline(file, (e) => ({
        ...e,
        signatures: [...e.signatures, { keyid: toTrustedKey(other.publicKey).key_id, sig: signature.sig }],
      })),
      "bad signature with the seal's key id first": reline(file, (e) => ({
        ...e,
        signatures: [{ keyid: payload.key_id, sig: Buffer.alloc(64).toString("base64") }, ...e.signatures],
      })),
      "signature pad bits set": reline(file, (e) => ({
        ...e,
        signatures: [{ ...signature, sig: flip(signature.sig) }],
      })),
    };
    for (const [name, bytes] of Object.entries(cases)) {
      const check = checkProvenanceFile(payload, bytes, trusted);
      assert.equal(check.code, "PROVENANCE_INVALID", `${name}: ${check.detail}`);
    }
    assert.equal(checkProvenanceFile(payload, Buffer.from(file), trusted).ok, true);
  });
});
