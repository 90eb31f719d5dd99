import type { Command } from "commander";
import type { CliIo } from "../cli-io.ts";
import type { CliConfig } from "../config/cli-config.ts";
import { registerCompletionCommands } from "./completion-commands.ts";
import { registerContextCommands } from "./context-commands.ts";
import { registerEntitlementCommands } from "./entitlement-commands.ts";
import { registerLocalCommands } from "./local-commands.ts";
import { registerProjectCommands } from "./project-commands.ts";
import { registerRunsCommands } from "./runs-commands.ts";

/** Registers the operator and chemist commands (issue 14) beside `svc seal`. */
export function registerOperatorCommands(
  program: Command,
  io: CliIo,
  config: CliConfig,
  setExit: (code: number) => void,
): void {
  registerContextCommands(program, io, config);
  registerRunsCommands(program, io, config, setExit);
  registerEntitlementCommands(program, io, config);
  registerProjectCommands(program, io, setExit);
  registerLocalCommands(program, io, config, setExit);
  registerCompletionCommands(program, io);
}
