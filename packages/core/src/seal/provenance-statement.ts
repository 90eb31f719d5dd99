import { z } from "zod";
import { canonicalBytes } from "../canonical-json.ts";
import { sha256Hex } from "../digest.ts";
import type { SigningKey } from "../keys.ts";
import { SEAL_FILES } from "../run-folder/run-files.ts";
import { type DsseEnvelope, signDsseEnvelope } from "./dsse-envelope.ts";
import type { SealPayload } from "./seal-payload.ts";

/** The file of `seal/` that holds the signed provenance (issue 30 item 6): one DSSE envelope a line (JSON Lines). */
export const PROVENANCE_FILE = SEAL_FILES.provenance;

/** in-toto Attestation Framework, Statement layer v1 (github.com/in-toto/attestation, spec/v1/statement.md). */
export const IN_TOTO_STATEMENT_TYPE = "https://in-toto.io/Statement/v1";
/** DSSE payloadType of an in-toto statement (in-toto attestation spec/v1/envelope.md). */
export const IN_TOTO_PAYLOAD_TYPE = "application/vnd.in-toto+json";
/** SLSA Provenance v1 (slsa.dev/spec/v1.0/provenance). */
export const SLSA_PROVENANCE_V1 = "https://slsa.dev/provenance/v1";
/**
 * Our build type (docs/seal-provenance.md): an audit run of a project's staged inputs by the
 * audit runner, sealed by the entitlement service. It fixes what externalParameters mean.
 */
export const AUDIT_RUN_BUILD_TYPE = "urn:svc:slsa:build-type:audit-run:v1";
/** The builder: the audit runner job, whose report the issuer attests (attestation `job_reported`). */
export const AUDIT_RUNNER_BUILDER_ID = "urn:svc:slsa:builder:audit-runner:v1";

/** Where the staged inputs sit in a run's world: resolvedDependencies name them `01_sources/<path>`. */
export const INPUTS_ROOT = "01_sources";

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const sha256 = z.string().regex(/^[0-9a-f]{64}$/, "64 lowercase hex digits (SHA-256)");
// svc-tree/v1 paths: relative POSIX, no newline, carriage return or backslash (walkTree refuses them)
const treePath = z
  .string()
  .min(1)
  .max(4096)
  .regex(/^[^\n\r\\]+$/, "a svc-tree/v1 path")
  // what a file system name decodes to: never a lone surrogate (canonical JSON refuses one)
  .refine((path) => !LONE_SURROGATE.test(path), "a lone UTF-16 surrogate");
const factText = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .refine((text) => !LONE_SURROGATE.test(text), "a lone UTF-16 surrogate");
const treeFiles = z.array(z.object({ path: treePath, sha256 }).strict()).max(100_000);

/**
 * What the runner adds to run_complete so the issuer can sign the run's provenance (issue 30
 * item 6): the svc-tree/v1 entries behind `outputs_sha256` and `inputs_sha256` (the issuer
 * checks both lists against the hashes it seals), and facts only the job knows.
 */
export const provenanceFactsSchema = z
  .object({
    outputs: treeFiles.describe("every file behind outputs_sha256, in svc-tree/v1 order"),
    inputs: treeFiles.describe("every file behind inputs_sha256 (01_sources), in svc-tree/v1 order"),
    policy_version: factText(128),
    modules: z
      .array(z.object({ module_id: z.string().min(1).max(64), version: z.string().min(1).max(64) }).strict())
      .max(1000)
      .describe("the analysis modules the run ran, with their versions"),
    runner_version: factText(64),
  })
  .strict();

export type ProvenanceFacts = z.infer<typeof provenanceFactsSchema>;

/** The svc-tree/v1 digest of a list of files (core digestTree): what the seal carries for it. */
export function treeListingSha256(files: readonly { path: string; sha256: string }[]): string {
  return sha256Hex(files.map((file) => `${file.sha256}  ${file.path}\n`).join(""));
}

/**
 * Which sealed hash a provenance fact list disagrees with, or null when both lists are exactly
 * the ones sealed. The issuer signs no statement whose subjects are not what it seals.
 */
export function provenanceDisagreement(
  sealed: Pick<SealPayload, "outputs_sha256" | "inputs_sha256">,
  facts: Pick<ProvenanceFacts, "outputs" | "inputs">,
): string | null {
  const outputs = treeListingSha256(facts.outputs);
  if (outputs !== sealed.outputs_sha256)
    return `the provenance outputs hash to ${outputs}, the sealed outputs_sha256 is ${sealed.outputs_sha256}`;
  const inputs = treeListingSha256(facts.inputs);
  if (inputs !== sealed.inputs_sha256)
    return `the provenance inputs hash to ${inputs}, the sealed inputs_sha256 is ${sealed.inputs_sha256}`;
  return null;
}

/** An in-toto ResourceDescriptor (spec/v1/resource_descriptor.md), as we fill it. */
export interface ResourceDescriptor {
  readonly name: string;
  readonly uri?: string;
  readonly digest?: { readonly sha256: string };
}

/** The in-toto Statement v1 with a SLSA Provenance v1 predicate that the issuer signs. */
export interface ProvenanceStatement {
  readonly _type: typeof IN_TOTO_STATEMENT_TYPE;
  readonly subject: readonly { readonly name: string; readonly digest: { readonly sha256: string } }[];
  readonly predicateType: typeof SLSA_PROVENANCE_V1;
  readonly predicate: {
    readonly buildDefinition: {
      readonly buildType: typeof AUDIT_RUN_BUILD_TYPE;
      readonly externalParameters: {
        readonly project: string;
        readonly mode: string;
        readonly category: string;
        readonly policy_version: string;
      };
      readonly internalParameters: { readonly module_id: string; readonly seal_id: string };
      readonly resolvedDependencies: readonly ResourceDescriptor[];
    };
    readonly runDetails: {
      readonly builder: {
        readonly id: typeof AUDIT_RUNNER_BUILDER_ID;
        readonly version: Record<string, string>;
      };
      readonly metadata: {
        readonly invocationId: string;
        readonly startedOn: string;
        readonly finishedOn: string;
      };
    };
  };
}

/**
 * The statement for a sealed run (issue 30 item 6; docs/seal-provenance.md): subjects are the
 * sealed outputs by run-folder path; project, mode, category, inputs and image come from the
 * signed payload, the policy and module versions from the job; startedOn is the issuer's
 * run_start time and finishedOn the seal's issued_at.
 */
export function buildProvenanceStatement(
  payload: SealPayload,
  facts: ProvenanceFacts,
  startedOn: string,
): ProvenanceStatement {
  const image: ResourceDescriptor = {
    name: "runner-image",
    uri: `docker://${payload.image.reference}`,
    ...(payload.image.digest === null
      ? {}
      : { digest: { sha256: payload.image.digest.slice("sha256:".length) } }),
  };
  return {
    _type: IN_TOTO_STATEMENT_TYPE,
    subject: facts.outputs.map((file) => ({ name: file.path, digest: { sha256: file.sha256 } })),
    predicateType: SLSA_PROVENANCE_V1,
    predicate: {
      buildDefinition: {
        buildType: AUDIT_RUN_BUILD_TYPE,
        externalParameters: {
          project: payload.project_id,
          mode: payload.mode,
          category: payload.category_id,
          policy_version: facts.policy_version,
        },
        internalParameters: { module_id: payload.module_id, seal_id: payload.seal_id },
        resolvedDependencies: [
          ...facts.inputs.map((file) => ({
            name: `${INPUTS_ROOT}/${file.path}`,
            digest: { sha256: file.sha256 },
          })),
          image,
          ...facts.modules.map((module) => ({
            name: `module:${module.module_id}`,
            uri: `urn:svc:module:${module.module_id}@${module.version}`,
          })),
        ],
      },
      runDetails: {
        builder: { id: AUDIT_RUNNER_BUILDER_ID, version: { "svc-runner": facts.runner_version } },
        metadata: { invocationId: payload.run_id, startedOn, finishedOn: payload.issued_at },
      },
    },
  };
}

/**
 * Signs the statement as the issuer (DSSE, payloadType application/vnd.in-toto+json, Ed25519
 * with the seal key) and returns the exact bytes of `seal/provenance.intoto.jsonl`: one envelope,
 * one line. The payload is the statement's canonical JSON, so a replayed run_complete signs the
 * same bytes (Ed25519 is deterministic, RFC 8032 §5.1.6) and the file is the same.
 */
export function signProvenanceFile(statement: ProvenanceStatement, key: SigningKey): string {
  return formatProvenanceLine(signDsseEnvelope(IN_TOTO_PAYLOAD_TYPE, canonicalBytes(statement), key));
}

/** One JSON Lines record: the envelope's compact JSON and a newline. */
export function formatProvenanceLine(envelope: DsseEnvelope): string {
  return `${JSON.stringify({ payload: envelope.payload, payloadType: envelope.payloadType, signatures: envelope.signatures })}\n`;
}
