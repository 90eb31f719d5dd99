export { CLI_EXITS, CliError, type CliErrorCode, type CliExitCode, exitOf } from "./cli-error.ts";
export { type LocalAuditOptions, runLocalAudit } from "./local/run-local-audit.ts";
export { type CliIo, runCli } from "./program.ts";
export {
  type PinAndVerifyOptions,
  type PinAndVerifyResult,
  pinIssuerAndVerify,
} from "./trust/pin-issuer-and-verify.ts";
