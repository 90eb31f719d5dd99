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
  "SEAL_NOT_RENDERABLE",
] as const;

export type CliErrorCode = (typeof CLI_ERROR_CODES)[number];

/** Exit codes of `svc`, documented in packages/cli/README.md. */
export const EXIT = {
  verified: 0,
  invalid: 1,
  usage: 2,
  unverified: 3,
  pending: 4,
  internal: 5,
  revoked: 6,
} as const;

/** A failure that is the user's to fix; printed as one line, exit code {@link EXIT.usage}. */
export class CliError extends Error {
  readonly code: CliErrorCode;

  constructor(code: CliErrorCode, message: string) {
    super(message);
    this.name = "CliError";
    this.code = code;
  }
}
