export { CliError, type CliErrorCode, EXIT } from "./cli-error.ts";
export { type CliIo, runCli } from "./program.ts";
