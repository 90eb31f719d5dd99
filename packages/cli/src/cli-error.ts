// The one error shape and the exit table factory, by their own entries: `svc --help` must not load
// the rest of @svc/core.
import { defineExitRegistry, exitErrorClass } from "@svc/core/exit-registry";
import { RUN_FILES } from "@svc/core/run-files";

/**
 * The one exit table of `svc` (issue 41 item 3): every outcome and error code under the exit status
 * it ends with, with the one line saying what to do. A code has one exit whatever the call site;
 * packages/cli/README.md ("States and exit codes", "Errors") is kept in step by cli-error.test.ts.
 * The seal states are core's (SEAL_STATES); the rest are the CLI's own.
 */
export const CLI_EXITS = defineExitRegistry({
  0: {
    VERIFIED: "nothing: every check passed",
    DONE: "nothing: the command did what it says (a seal rendered, a checkpoint kept, a run sealed or succeeded)",
  },
  1: {
    INVALID: "do not trust the seal or folder: read the reason code and the files named",
    RUN_FAILED: "read the run's status and log (runs status, runs logs), fix the cause and launch a new run",
  },
  2: {
    USAGE: "run the command with --help and give the arguments it names",
    FILE_NOT_FOUND: "check the path",
    FILE_UNREADABLE: "give a path to a readable file",
    FILE_UNWRITABLE: "make the folder writable, or choose another path that does not exist yet",
    KEY_INVALID: "give an Ed25519 public key as an SPKI PEM file",
    KEYS_FILE_INVALID: "give the JSON that GET /api/seal/keys serves, unedited",
    ISSUER_URL_INVALID: "give --issuer as an http(s) URL without credentials",
    KEY_ISSUER_MISMATCH: "pin each issuer from its own URL",
    SEAL_NOT_RENDERABLE: "give the seal.json and seal.sig of a signed seal, as the runner wrote them",
    CONTEXT_NOT_FOUND: "add a context (context add), then select it (context use)",
    CONTEXT_INCOMPLETE: "set the missing URL or credential source (context add)",
    CONFIG_INVALID: "fix or remove the config file at the path and field named",
    SECRET_UNAVAILABLE: "make the secret source readable (file, variable, Kubernetes secret and RBAC)",
    INPUT_INVALID: "fix the flag or argument named, as the message says",
    PROFILE_INVALID: "use --profile oral_peripheral, oral_cns or non_oral",
  },
  3: {
    UNVERIFIED: "pin the issuer (trust add --issuer <url>) or pass a key you trust",
  },
  4: {
    PRESEAL_UNSIGNED: "complete the seal (svc-runner seal) before trusting the folder",
    RUN_PRESEALED: "complete the seal with svc-runner seal once the entitlement service is reachable",
  },
  5: {
    INTERNAL: "report the failure with the message above",
    RUNNER_INCOMPATIBLE:
      "install the svc-runner of this svc's version, or check the project end to end (local run)",
  },
  6: {
    REVOKED: "do not trust the seal: its issuer revoked it",
  },
  7: {
    REVOCATION_UNKNOWN: "retry later: the issuer could not say whether it revoked the seal",
  },
  8: {
    NOT_ISSUED_HERE: "do not trust the seal: the issuer asked does not vouch for it",
  },
  9: {
    LOG_PROOF_INVALID:
      "do not trust the seal: its log proof does not lead to a checkpoint a key you trust signed",
  },
  10: {
    ISSUER_UNREACHABLE: "check --issuer and the network, then try again",
    ISSUER_RESPONSE_INVALID:
      "check that --issuer is an entitlement service of a matching version (docs/contracts/entitlement-http.md)",
    SERVICE_UNREACHABLE: "check the context's URL and the network, then try again",
    SERVICE_CONTRACT: "check that the context's URL is the right service, of a matching version",
  },
  11: {
    SERVICE_AUTH: "check the context's token sources",
  },
  12: {
    SERVICE_REFUSED: "act on the service's error code in the message",
  },
  13: {
    SERVICE_FAILED: "retry, or give the service's operator the request id",
  },
  14: {
    LOG_ENTRY_MISMATCH: "do not trust the seal: the log does not hold its entry",
  },
  15: {
    LOG_INCONSISTENT:
      "keep both checkpoints as evidence and report the issuer: its log was rewritten or forked",
  },
  16: {
    ISSUED_SEAL_MISMATCH: "do not trust the seal: the issuer recorded another payload under this seal id",
  },
  17: {
    LOG_PROOF_MISSING: `ask for the whole run folder with ${RUN_FILES.sealLogProof}; the seal is not trusted without it`,
  },
});

/** Every code of the exit table. */
export type CliExitCode = keyof typeof CLI_EXITS;

/** The codes a command throws as a {@link CliError} (README "Errors"); the rest are outcomes a command returns. */
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
  "RUNNER_INCOMPATIBLE",
  "SERVICE_UNREACHABLE",
  "SERVICE_CONTRACT",
  "SERVICE_AUTH",
  "SERVICE_REFUSED",
  "SERVICE_FAILED",
] as const satisfies readonly CliExitCode[];

export type CliErrorCode = (typeof CLI_ERROR_CODES)[number];

/** The exit status of a code, from the one table. */
export function exitOf(code: CliExitCode): number {
  return CLI_EXITS[code].exit;
}

/**
 * A failure reported as one line; its exit status is its code's in {@link CLI_EXITS}, never chosen
 * by the call site.
 */
export class CliError extends exitErrorClass<CliErrorCode, number>(CLI_EXITS) {}
