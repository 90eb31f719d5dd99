import { z } from "zod";
import { canonicalBytes } from "../canonical-json.ts";
import type { TrustedKey } from "../keys.ts";
import { RUN_FILES } from "../run-folder/run-files.ts";
import { type DsseEnvelope, dsseEnvelopeSchema, openDsseEnvelope } from "./dsse-envelope.ts";
import {
  buildProvenanceStatement,
  formatProvenanceLine,
  IN_TOTO_PAYLOAD_TYPE,
  INPUTS_ROOT,
  type ProvenanceFacts,
  provenanceDisagreement,
} from "./provenance-statement.ts";
import type { SealCheck } from "./seal-check.ts";
import type { SealPayload } from "./seal-payload.ts";

// Only what is needed to read the job-reported facts back; the whole statement is then rebuilt
// from them and the signed payload and compared byte for byte, so nothing here is trusted.
const descriptor = z.object({
  name: z.string(),
  uri: z.string().optional(),
  digest: z.object({ sha256: z.string() }).optional(),
});
const statementFacts = z.object({
  subject: z.array(z.object({ name: z.string(), digest: z.object({ sha256: z.string() }) })),
  predicate: z.object({
    buildDefinition: z.object({
      externalParameters: z.object({ policy_version: z.string() }),
      resolvedDependencies: z.array(descriptor),
    }),
    runDetails: z.object({
      builder: z.object({ version: z.object({ "svc-runner": z.string() }) }),
      metadata: z.object({ startedOn: z.string() }),
    }),
  }),
});

/**
 * Checks `seal/provenance.intoto.jsonl` offline (issue 30 item 6; docs/seal-provenance.md):
 * one line, one DSSE envelope with one signature, written as the runner writes it, of type
 * application/vnd.in-toto+json, signed by the seal's own key (trusted); its statement is exactly
 * the one the issuer builds for this seal (subjects, project, mode, category, inputs, image, seal
 * id, run id, finish time), and its subjects and inputs hash to the sealed `outputs_sha256` and
 * `inputs_sha256`. Anything else is PROVENANCE_INVALID; with no trusted seal key either, the
 * seal's KEY_UNTRUSTED decides.
 */
export function checkProvenanceFile(
  payload: SealPayload,
  file: Uint8Array,
  trustedKeys: readonly TrustedKey[],
): SealCheck {
  const fail = (detail: string, code: "PROVENANCE_INVALID" | "KEY_UNTRUSTED" = "PROVENANCE_INVALID") => ({
    name: "provenance" as const,
    ok: false,
    detail: `${RUN_FILES.sealProvenance}: ${detail}`,
    code,
  });
  const text = Buffer.from(file).toString("utf8");
  if (!Buffer.from(text, "utf8").equals(Buffer.from(file))) return fail("not UTF-8");
  if (!text.endsWith("\n")) return fail("not JSON Lines (no final newline)");
  const lines = text.slice(0, -1).split("\n");
  // the issuer writes one envelope with one signature (signProvenanceFile): a second line, even a
  // copy of the first, or a second signature, is a second byte version of the file (issue 38 item 7)
  if (lines.length !== 1) return fail(`${lines.length} lines; the issuer writes one DSSE envelope`);
  let subjects = 0;
  for (const [index, line] of lines.entries()) {
    const where = `line ${index + 1}`;
    let envelope: DsseEnvelope;
    try {
      const parsed = dsseEnvelopeSchema.safeParse(JSON.parse(line));
      if (!parsed.success) return fail(`${where} is not a DSSE envelope`);
      envelope = parsed.data;
    } catch {
      return fail(`${where} is not JSON`);
    }
    // byte for byte, like every file of seal/: no duplicate key nor extra text a reader could see
    if (formatProvenanceLine(envelope) !== `${line}\n`)
      return fail(`${where} is not written as the runner writes it`);
    if (envelope.signatures.length !== 1)
      return fail(`${where} carries ${envelope.signatures.length} signatures; the issuer signs with one`);
    if (envelope.payloadType !== IN_TOTO_PAYLOAD_TYPE)
      return fail(`${where} has payloadType ${envelope.payloadType}, not ${IN_TOTO_PAYLOAD_TYPE}`);
    const opened = openDsseEnvelope(envelope, payload.key_id, trustedKeys);
    if ("refused" in opened) {
      const sealKeyTrusted = trustedKeys.some((key) => key.key_id === payload.key_id);
      if (opened.refused === "untrusted" && !sealKeyTrusted)
        return fail(`${where} is signed by no key you trust`, "KEY_UNTRUSTED");
      return fail(
        opened.refused === "malformed"
          ? `${where}'s payload or signature is not canonical standard base64`
          : opened.refused === "untrusted"
            ? `${where} carries no signature by the seal's key ${payload.key_id}`
            : `${where}'s DSSE signature does not verify with ${payload.key_id}`,
      );
    }
    const problem = checkStatement(payload, opened.payload);
    if (problem !== null) return fail(`${where}: ${problem}`);
    subjects = Math.max(subjects, statementSubjectCount(opened.payload));
  }
  return {
    name: "provenance",
    ok: true,
    detail: `${lines.length} DSSE envelope(s) signed by ${payload.key_id}; the SLSA provenance names the ${subjects} sealed outputs`,
  };
}

/** Null when the signed statement is exactly the issuer's statement for this seal. */
function checkStatement(payload: SealPayload, bytes: Buffer): string | null {
  let facts: ProvenanceFacts;
  let startedOn: string;
  try {
    const parsed = statementFacts.safeParse(JSON.parse(bytes.toString("utf8")));
    if (!parsed.success)
      return "the payload is not an in-toto Statement v1 with a SLSA Provenance v1 predicate";
    const { subject, predicate } = parsed.data;
    const dependencies = predicate.buildDefinition.resolvedDependencies;
    facts = {
      outputs: subject.map((entry) => ({ path: entry.name, sha256: entry.digest.sha256 })),
      inputs: dependencies.flatMap((entry) =>
        entry.name.startsWith(`${INPUTS_ROOT}/`) && entry.digest !== undefined
          ? [{ path: entry.name.slice(INPUTS_ROOT.length + 1), sha256: entry.digest.sha256 }]
          : [],
      ),
      policy_version: predicate.buildDefinition.externalParameters.policy_version,
      modules: dependencies.flatMap((entry) => {
        if (!entry.name.startsWith("module:") || entry.uri === undefined) return [];
        const moduleId = entry.name.slice("module:".length);
        const prefix = `urn:svc:module:${moduleId}@`;
        return entry.uri.startsWith(prefix)
          ? [{ module_id: moduleId, version: entry.uri.slice(prefix.length) }]
          : [];
      }),
      runner_version: predicate.runDetails.builder.version["svc-runner"],
    };
    startedOn = predicate.runDetails.metadata.startedOn;
  } catch {
    return "the payload is not JSON";
  }
  const disagreement = provenanceDisagreement(payload, facts);
  if (disagreement !== null) return disagreement;
  let expected: Buffer;
  try {
    expected = canonicalBytes(buildProvenanceStatement(payload, facts, startedOn));
  } catch {
    return "the statement cannot be rebuilt canonically";
  }
  if (!expected.equals(bytes))
    return "the statement is not the issuer's statement for this seal (its run, project, mode, category, image, seal or times differ, or it is not canonical JSON)";
  return null;
}

function statementSubjectCount(bytes: Buffer): number {
  return (JSON.parse(bytes.toString("utf8")) as { subject: unknown[] }).subject.length;
}
