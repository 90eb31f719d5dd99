import type { SealReasonCode } from "./seal-reason-code.ts";

/** The checks a verification reports, in the order the verifier runs them. */
export type SealCheckName =
  | "svg_readable"
  | "embedded_seal"
  | "payload_schema"
  | "canonical_image"
  | "key_trusted"
  | "signature"
  | "ring_channel"
  | "barcode_channel"
  | "barcode_digest"
  | "seal_files"
  | "verify_script"
  | "run_coverage"
  | "run_manifest"
  | "run_manifest_fields"
  | "claim_strength"
  | "runner_image"
  | "run_outputs"
  | "revocation"
  | "log_inclusion"
  | "log_consistency"
  | "provenance";

/** One check of a verification: what was checked, whether it held, and in words why. */
export interface SealCheck {
  readonly name: SealCheckName;
  readonly ok: boolean;
  readonly detail: string;
  /** Set on a failed check: the reason code it stands for. */
  readonly code?: SealReasonCode;
}
