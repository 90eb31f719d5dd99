import { Command, CommanderError } from "commander";
import { CliError, EXIT } from "./cli-error.ts";
import type { CliIo } from "./cli-io.ts";
import { registerOperatorCommands } from "./commands/register-operator-commands.ts";
import { runSealVerify } from "./commands/seal-verify.ts";

export type { CliIo } from "./cli-io.ts";

/**
 * Runs `svc` with `argv` (without the node and script entries) and returns the exit code.
 * Errors are translated here, the CLI's one edge: a user error is one line and exit 2.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let exitCode: number = EXIT.verified;
  const program = new Command("svc")
    .description("Operator and auditor commands of the svc audit platform.")
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
  const seal = program.command("seal").description("Work with audit seals.");
  seal
    .command("verify")
    .description("Verify a seal offline: a seal.svg file, or a run output directory (uses its seal/ folder).")
    .argument("<target>", "seal.svg, or a run output directory")
    .option(
      "--key <pem>",
      "public key to trust (repeatable)",
      (value: string, all: string[]) => [...all, value],
      [],
    )
    .option("--keys <json>", "trusted keys as served by GET /api/seal/keys")
    .option("--json", "print the result as JSON")
    .action(async (target: string, options: { key: string[]; keys?: string; json?: boolean }) => {
      const outcome = await runSealVerify(target, options);
      io.stdout(outcome.output);
      exitCode = outcome.exitCode;
    });
  registerOperatorCommands(program, io, (code) => {
    exitCode = code;
  });
  try {
    await program.parseAsync([...argv], { from: "user" });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : EXIT.usage;
    if (error instanceof CliError) {
      io.stderr(`svc: ${error.message}\n`);
      return error.exitCode;
    }
    io.stderr(`svc: internal error: ${(error as Error).message}\n`);
    return EXIT.internal;
  }
}
