import type { Command } from "commander";
import type { CliIo } from "../program.ts";
import { registerContextCommands } from "./context-commands.ts";
import { registerEntitlementCommands } from "./entitlement-commands.ts";
import { registerRunsCommands } from "./runs-commands.ts";

/** Registers the operator and chemist commands (issue 14) beside `svc seal`. */
export function registerOperatorCommands(program: Command, io: CliIo, setExit: (code: number) => void): void {
  registerContextCommands(program, io);
  registerRunsCommands(program, io, setExit);
  registerEntitlementCommands(program, io);
}
