import { randomBytes } from "node:crypto";
import { z } from "zod";
import { CLAIM_STRENGTHS } from "../contracts/claim-strength.ts";
import { CoreError } from "../core-error.ts";
import { sha256Hex } from "../digest.ts";
import { RUN_FILES } from "../run-folder/run-files.ts";

/**
 * The first seal version. It is also the domain tag of the barcode digest in every version
 * (computeBarcodeDigest), so a v2 seal's QR and ring are made exactly as a v1 seal's.
 */
export const SEAL_VERSION = "svc.seal/v1";
/**
 * The seal version issued now (issue 23 item 5): v1 plus the signed `attestation` level. A v1 seal
 * (no attestation) still verifies and renders exactly as issued; a v2 seal must carry it.
 */
export const SEAL_VERSION_V2 = "svc.seal/v2";
export const SEAL_VERSIONS = [SEAL_VERSION, SEAL_VERSION_V2] as const;

/**
 * What a seal attests, stated in what is signed (issue 23 item 5). The service cannot see a
 * customer's cluster: the one level is `job_reported`.
 */
export const ATTESTATION_LEVELS = {
  job_reported:
    "the principal's job reported these hashes to the issuer for a consumed run; the issuer did not observe the computation",
} as const;

export type AttestationLevel = keyof typeof ATTESTATION_LEVELS;
export const PRESEAL_VERSION = "svc.preseal/v1";

const sha256 = z.string().regex(/^[0-9a-f]{64}$/, "lowercase hex SHA-256");
const instant = z.iso
  .datetime({ offset: false, precision: 0 })
  .describe("UTC instant, second precision, `Z`");
const text = (max: number) => z.string().min(1).max(max);

/** `seal_` + 128 random bits in hex: the ring channel encodes exactly this. */
export const sealIdSchema = z
  .string()
  .regex(/^seal_[0-9a-f]{32}$/, "seal_ followed by 32 lowercase hex digits");

export const imageRefSchema = z
  .object({
    reference: text(512).describe("image reference as configured, e.g. registry/runner:1.0.0"),
    digest: z
      .string()
      .regex(/^sha256:[0-9a-f]{64}$/)
      .nullable()
      .describe("content digest of the image, null when the runtime did not report one"),
  })
  .strict();

const runFields = {
  run_id: text(128),
  project_id: text(128),
  mode: z.enum(["standard", "deep"]),
  module_id: text(64),
  category_id: text(128),
  image: imageRefSchema,
  inputs_sha256: sha256.describe("svc-tree/v1 digest of 01_sources"),
  run_manifest_sha256: sha256.describe(`SHA-256 of ${RUN_FILES.manifest}`),
  outputs_sha256: sha256.describe("svc-tree/v1 digest of the output set at completion (seal/ excluded)"),
};

/**
 * The signed seal payload (domain notes, "Seal"). Only strings, safe integers and null, so its
 * canonical bytes are the same in every conforming serialiser. A run paid by a rerun credit
 * (issue 16: a redeemed seal buys a rerun, not a new currency) says so with `funding: "rerun"` and
 * the origin seal in `rerun_of`; both are absent for a purchased run, so older seals keep their bytes.
 */
export const sealPayloadSchema = z
  .object({
    seal_version: z.enum(SEAL_VERSIONS),
    seal_id: sealIdSchema,
    principal: text(320).describe("caller identity that consumed the run"),
    ...runFields,
    barcode_digest: sha256.describe("digest carried by the QR channel, see computeBarcodeDigest"),
    issued_at: instant,
    issuer: text(256).describe("the entitlement service that issued the seal"),
    key_id: z.string().regex(/^ed25519:[0-9a-f]{32}$/),
    verify_url: z
      .url({ protocol: /^https?$/ })
      .max(200)
      .nullable()
      .describe("online verification page, if any"),
    funding: z
      .literal("rerun")
      .optional()
      .describe("present when the run was paid by a rerun credit; such a seal cannot be redeemed"),
    rerun_of: sealIdSchema.optional().describe("the seal whose redemption paid for this run"),
    attestation: z
      .enum(Object.keys(ATTESTATION_LEVELS) as [AttestationLevel])
      .optional()
      .describe(
        "svc.seal/v2: what the seal attests; job_reported = the principal's job reported these hashes, the issuer did not observe the computation",
      ),
    claim_strength: z
      .enum(CLAIM_STRENGTHS)
      .optional()
      .describe(
        `svc.seal/v2, issue 37 item 3: the claim strength the job's ${RUN_FILES.summary} states (SUPPORTED or HYPOTHESIS), as the job reported it; absent from seals of runners before it`,
      ),
  })
  .strict()
  .refine((payload) => (payload.seal_version === SEAL_VERSION_V2) === (payload.attestation !== undefined), {
    message: "svc.seal/v2 carries attestation, svc.seal/v1 does not",
    path: ["attestation"],
  })
  // issue 37 item 3: a v1 seal is drawn and verified as it was issued, so it never carries one
  .refine((payload) => payload.claim_strength === undefined || payload.seal_version === SEAL_VERSION_V2, {
    message: "claim_strength is a svc.seal/v2 field",
    path: ["claim_strength"],
  })
  .refine((payload) => (payload.funding === undefined) === (payload.rerun_of === undefined), {
    message: "funding and rerun_of come together",
    path: ["rerun_of"],
  });

export type SealPayload = z.infer<typeof sealPayloadSchema>;

/**
 * Why a charged run holds a pre-seal instead of a seal: run_complete could not be reached, or it
 * refused the job's credentials (an expired or revoked token, a principal no longer allowed).
 * Either way the outputs are complete and paid for; `svc-runner seal` completes them later.
 */
export const PRESEAL_REASONS = ["run_complete_unreachable", "run_complete_unauthorized"] as const;

export type PresealReason = (typeof PRESEAL_REASONS)[number];

/** A pre-seal: written by the job when run_complete did not seal; carries no signature. */
export const presealPayloadSchema = z
  .object({
    seal_version: z.literal(PRESEAL_VERSION),
    ...runFields,
    created_at: instant,
    reason: z.enum(PRESEAL_REASONS),
  })
  .strict();

export type PresealPayload = z.infer<typeof presealPayloadSchema>;

/** Validates an unknown value as a seal payload; throws `SEAL_PAYLOAD_INVALID` listing every problem. */
export function parseSealPayload(value: unknown): SealPayload {
  const result = sealPayloadSchema.safeParse(value);
  if (!result.success) throw new CoreError("SEAL_PAYLOAD_INVALID", describeIssues(result.error));
  return result.data;
}

/** Validates an unknown value as a pre-seal payload. */
export function parsePresealPayload(value: unknown): PresealPayload {
  const result = presealPayloadSchema.safeParse(value);
  if (!result.success) throw new CoreError("SEAL_PAYLOAD_INVALID", describeIssues(result.error));
  return result.data;
}

/** A fresh, unguessable seal id. */
export function newSealId(): string {
  return `seal_${randomBytes(16).toString("hex")}`;
}

/**
 * The barcode digest: SHA-256 (hex) of
 * `svc.seal/v1\n<inputs_sha256>\n<outputs_sha256>\n<run_manifest_sha256>\n<seal_id>`.
 * The QR channel carries it; the signed payload repeats it; a verifier recomputes it.
 */
export function computeBarcodeDigest(fields: {
  inputs_sha256: string;
  outputs_sha256: string;
  run_manifest_sha256: string;
  seal_id: string;
}): string {
  return sha256Hex(
    [
      SEAL_VERSION,
      fields.inputs_sha256,
      fields.outputs_sha256,
      fields.run_manifest_sha256,
      fields.seal_id,
    ].join("\n"),
  );
}

/**
 * One sentence on what a seal attests, for every surface that shows a verified seal (the CLI, the
 * /verify page). A v1 seal does not state it, but attested no more than a v2 seal does.
 */
export function describeAttestation(payload: SealPayload): string {
  const level = payload.attestation ?? "job_reported";
  const stated = payload.attestation ? level : `${level}, not stated by this ${payload.seal_version} seal`;
  return `attests (${stated}): ${ATTESTATION_LEVELS[level]}`;
}

/**
 * One sentence on the signed claim strength, for the surfaces that show a verified seal (issue 37
 * item 3), or null when the seal carries none (a runner before it). The job reported it, as it
 * reported the hashes; a run folder must state the same in results/summary.json.
 */
export function describeClaimStrength(payload: SealPayload): string | null {
  if (payload.claim_strength === undefined) return null;
  const why =
    payload.claim_strength === "SUPPORTED"
      ? "every required module ran and did its work"
      : "not every required module ran or did its work: the report's claim reasons say why";
  return `claim strength (signed, as the job reported it): ${payload.claim_strength}, ${why}`;
}

/** True for a signed seal's payload of any version, false for a pre-seal's. */
export function isSealPayload(
  payload: SealPayload | PresealPayload | null | undefined,
): payload is SealPayload {
  return payload != null && payload.seal_version !== PRESEAL_VERSION;
}

/** The exact text of the QR code for a payload: a verification link when configured. */
export function barcodeContent(payload: SealPayload): string {
  if (payload.verify_url) {
    const url = new URL(payload.verify_url);
    url.searchParams.set("seal_id", payload.seal_id);
    url.searchParams.set("d", payload.barcode_digest);
    return url.toString();
  }
  return `SVCSEAL1:${payload.seal_id}:${payload.barcode_digest}`;
}

function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`).join("; ");
}
