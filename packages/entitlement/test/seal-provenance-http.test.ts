import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  checkProvenanceFile,
  type DsseEnvelope,
  IN_TOTO_PAYLOAD_TYPE,
  type ProvenanceFacts,
  parseSealPayload,
  SLSA_PROVENANCE_V1,
  toTrustedKey,
  treeListingSha256,
} from "@svc/core";
import { startServiceWithRuns, startTestRun, type TestService } from "./app-harness.ts";

const hex = (char: string) => char.repeat(64);
const outputs = [
  { path: "results/summary.json", sha256: hex("1") },
  { path: "run_manifest.json", sha256: hex("c") },
];
const inputs = [{ path: "compounds.csv", sha256: hex("2") }];
const facts: ProvenanceFacts = {
  outputs,
  inputs,
  policy_version: "policy-1",
  modules: [{ module_id: "molecular_logic", version: "1.0.0" }],
  runner_version: "0.1.0",
};
let sequence = 0;

describe("run_complete signs the run's SLSA provenance (issue 30 item 6)", () => {
  let svc: TestService;
  let token: string;

  /** consume → run_start; returns the run id. */
  const startRun = async (staged = inputs) => {
    const run_id = `run_prov_${sequence++}`;
    await startTestRun(
      svc,
      token,
      { run_id, project_id: "proj1", mode: "standard", module_id: "computational" },
      { inputs_sha256: treeListingSha256(staged), digest: `sha256:${hex("f")}` },
    );
    return run_id;
  };

  before(async () => {
    ({ svc, token } = await startServiceWithRuns("alice", 20));
  });
  after(async () => {
    await svc.close();
  });

  it("returns one DSSE envelope, signed with the seal's key, over the statement of the sealed outputs; a retry returns the same bytes", async () => {
    const run_id = await startRun();
    const body = {
      run_id,
      outputs_sha256: treeListingSha256(outputs),
      run_manifest_sha256: hex("c"),
      provenance: facts,
    };
    const done = await svc.request("/api/entitlement/run_complete", { token, body });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    const payload = parseSealPayload(JSON.parse(done.body.seal.seal_json));
    const file: string = done.body.provenance;
    const envelope = JSON.parse(file) as DsseEnvelope;
    assert.equal(envelope.payloadType, IN_TOTO_PAYLOAD_TYPE);
    assert.deepEqual(
      envelope.signatures.map((signature) => signature.keyid),
      [payload.key_id],
    );
    const statement = JSON.parse(Buffer.from(envelope.payload, "base64").toString());
    assert.equal(statement.predicateType, SLSA_PROVENANCE_V1);
    assert.deepEqual(
      statement.subject.map((subject: { name: string }) => subject.name),
      ["results/summary.json", "run_manifest.json"],
    );
    assert.match(statement.predicate.runDetails.metadata.startedOn, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const check = checkProvenanceFile(payload, Buffer.from(file), [toTrustedKey(svc.signingKey.publicKey)]);
    assert.equal(check.ok, true, check.detail);
    const again = await svc.request("/api/entitlement/run_complete", { token, body });
    assert.equal(again.body.provenance, file);
  });

  it("refuses (422 PROVENANCE_MISMATCH) outputs or inputs that are not the sealed hashes, and seals nothing", async () => {
    const run_id = await startRun();
    const sealed = { run_id, outputs_sha256: treeListingSha256(outputs), run_manifest_sha256: hex("c") };
    const fewer = await svc.request("/api/entitlement/run_complete", {
      token,
      body: { ...sealed, provenance: { ...facts, outputs: outputs.slice(1) } },
    });
    assert.equal(fewer.status, 422);
    assert.equal(fewer.body.error.code, "PROVENANCE_MISMATCH");
    const otherInputs = await svc.request("/api/entitlement/run_complete", {
      token,
      body: { ...sealed, provenance: { ...facts, inputs: [{ path: "x.csv", sha256: hex("2") }] } },
    });
    assert.equal(otherInputs.body.error.code, "PROVENANCE_MISMATCH");
    // nothing was sealed: the run can still complete, with other hashes than any refused call
    const done = await svc.request("/api/entitlement/run_complete", {
      token,
      body: { ...sealed, outputs_sha256: hex("e") },
    });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal(done.body.provenance, undefined, "no provenance asked, none signed");
  });

  it("refuses (400 PROVENANCE_PATH_INVALID, naming the field) subjects no folder can hold, even when they hash to the sealed outputs, and seals nothing (issue 38 item 6)", async () => {
    const run_id = await startRun();
    const subject = (path: string, digit = "1") => ({ path, sha256: hex(digit) });
    const observed: [string, { path: string; sha256: string }[], string][] = [
      ["a path out of the folder", [subject("../../../../etc/passwd")], "provenance.outputs.0.path"],
      ["an absolute path", [subject("/etc/shadow")], "provenance.outputs.0.path"],
      [
        "a file of seal/",
        [subject("results/summary.json"), subject("seal/seal.json")],
        "provenance.outputs.1.path",
      ],
      [
        "one path twice with two digests",
        [subject("results/summary.json", "1"), subject("results/summary.json", "2")],
        "provenance.outputs.1.path",
      ],
      ["NFC/NFD twins", [subject("Amélie.json"), subject("Amélie.json")], "provenance.outputs.0.path"],
      ["a right-to-left override", [subject("report/‮lmth.exe")], "provenance.outputs.0.path"],
      [
        "an unsorted list",
        [subject("run_manifest.json"), subject("results/summary.json")],
        "provenance.outputs.1.path",
      ],
    ];
    for (const [name, listed, field] of observed) {
      const refused = await svc.request("/api/entitlement/run_complete", {
        token,
        body: {
          run_id,
          // the list hashes to the outputs_sha256 reported: the digest alone let all of these through
          outputs_sha256: treeListingSha256(listed),
          run_manifest_sha256: hex("c"),
          provenance: { ...facts, outputs: listed },
        },
      });
      assert.equal(refused.status, 400, `${name}: ${JSON.stringify(refused.body)}`);
      assert.equal(refused.body.error.code, "PROVENANCE_PATH_INVALID", name);
      assert.match(refused.body.error.message, new RegExp(`^field ${field.replaceAll(".", "\\.")}: `), name);
    }
    const escapingInput = await svc.request("/api/entitlement/run_complete", {
      token,
      body: {
        run_id,
        outputs_sha256: treeListingSha256(outputs),
        run_manifest_sha256: hex("c"),
        provenance: { ...facts, inputs: [{ path: "../secrets.csv", sha256: hex("2") }] },
      },
    });
    assert.equal(escapingInput.body.error.code, "PROVENANCE_PATH_INVALID");
    assert.match(escapingInput.body.error.message, /^field provenance\.inputs\.0\.path: /);
    // nothing was sealed: the run completes with its real listing, and its subjects are signed
    const done = await svc.request("/api/entitlement/run_complete", {
      token,
      body: {
        run_id,
        outputs_sha256: treeListingSha256(outputs),
        run_manifest_sha256: hex("c"),
        provenance: facts,
      },
    });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal(typeof done.body.provenance, "string");
  });

  it("signs file names the stores' text rules would refuse (an NFD name), and refuses a malformed provenance with 400", async () => {
    const nfd = [{ path: "Ame\u0301lie.csv", sha256: hex("2") }];
    const run_id = await startRun(nfd);
    const body = {
      run_id,
      outputs_sha256: treeListingSha256(outputs),
      run_manifest_sha256: hex("c"),
      provenance: { ...facts, inputs: nfd },
    };
    const malformed = await svc.request("/api/entitlement/run_complete", {
      token,
      body: { ...body, provenance: { ...facts, inputs: nfd, modules: [{ module_id: "x" }] } },
    });
    assert.equal(malformed.status, 400);
    assert.match(malformed.body.error.message, /field provenance\.modules\.0\.version/);
    const done = await svc.request("/api/entitlement/run_complete", { token, body });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    const envelope = JSON.parse(done.body.provenance) as DsseEnvelope;
    assert.match(Buffer.from(envelope.payload, "base64").toString(), /01_sources\/Ame\u0301lie\.csv/);
  });

  it("compares nothing with another principal's run: its run_complete is 409 RUN_ID_CONFLICT, whatever the provenance", async () => {
    const run_id = await startRun();
    const bob = await svc.tokenFor("bob");
    const stranger = await svc.request("/api/entitlement/run_complete", {
      token: bob,
      body: {
        run_id,
        outputs_sha256: treeListingSha256(outputs),
        run_manifest_sha256: hex("c"),
        provenance: { ...facts, inputs: [{ path: "guess.csv", sha256: hex("9") }] },
      },
    });
    assert.equal(stranger.status, 409);
    assert.equal(stranger.body.error.code, "RUN_ID_CONFLICT");
  });
});
