// The one error shape, by its own entry: `svc --help` must not load the rest of @svc/core.
import { CodedError } from "@svc/core/coded-error";

/** Stable codes for every failure the `svc` CLI reports (ARCHITECTURE.md convention 6). */
export const CLI_ERROR_CODES = [
  "USAGE",
  "FILE_NOT_FOUND",
  "FILE_UNREADABLE",
  "FILE_UNWRITABLE",
  "KEY_INVALID",
  "KEYS_FILE_INVALID",
  "ISSUER_URL_INVALID",
  "ISSUER_UNREACHABLE",
  "ISSUER_RESPONSE_INVALID",
  "KEY_ISSUER_MISMATCH",
  "SEAL_NOT_RENDERABLE",
  // The operator and chemist commands (contexts, runs, entitlement, projects, local run).
  "CONTEXT_NOT_FOUND",
  "CONTEXT_INCOMPLETE",
  "CONFIG_INVALID",
  "SECRET_UNAVAILABLE",
  "INPUT_INVALID",
  "PROFILE_INVALID",
  "SERVICE_UNREACHABLE",
  "SERVICE_CONTRACT",
  "SERVICE_AUTH",
  "SERVICE_REFUSED",
  "SERVICE_FAILED",
] as const;

export type CliErrorCode = (typeof CLI_ERROR_CODES)[number];

/** Exit codes of `svc`, documented in packages/cli/README.md. */
export const EXIT = {
  verified: 0,
  invalid: 1,
  usage: 2,
  unverified: 3,
  /** A pre-sealed run (runs --wait), and a verified pre-seal: an unsigned claim (PRESEAL_UNSIGNED). */
  pending: 4,
  internal: 5,
  revoked: 6,
  /** With --issuer: the issuer could not say whether it revoked the seal (issue 23 item 4). */
  revocationUnknown: 7,
  /** With --issuer: the issuer says it did not issue the seal (issue 23 item 6). */
  notIssuedHere: 8,
  /** seal/log-proof.json does not prove the seal in a checkpoint a trusted key signed (issue 30). */
  logProofInvalid: 9,
  /** The service could not be reached, or answered outside its contract. */
  unreachable: 10,
  /** The service refused the credentials (401, 403). */
  auth: 11,
  /** The service refused the request (another 4xx: not found, conflict, no runs left). */
  refused: 12,
  /** The service failed (5xx). */
  serviceFailed: 13,
  /** The log's leaf for the seal is missing or is another entry (issue 30). */
  logEntryMismatch: 14,
  /** The issuer's log is not an extension of the checkpoint kept (rewritten or forked; issue 30). */
  logInconsistent: 15,
  /** With --issuer: the issuer issued another seal under this seal id (issue 38 item 1). */
  issuedSealMismatch: 16,
  /** seal/log-proof.json is missing though the pinned key says its issuer logs every seal (issue 38 item 2). */
  logProofMissing: 17,
} as const;

/** A failure reported as one line; exit code {@link EXIT.usage} unless given. */
export class CliError extends CodedError<CliErrorCode> {
  readonly exitCode: number;

  constructor(code: CliErrorCode, message: string, exitCode: number = EXIT.usage, options?: ErrorOptions) {
    super(code, message, options);
    this.exitCode = exitCode;
  }
}
