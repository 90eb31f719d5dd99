import { readFileSync } from "node:fs";
import { RUN_FILES } from "@svc/core/run-files";
import { Command, CommanderError } from "commander";
import { CliError, exitOf } from "./cli-error.ts";
import type { CliIo } from "./cli-io.ts";
import { registerOperatorCommands } from "./commands/register-operator-commands.ts";
import { readCliConfig } from "./config/cli-config.ts";

export type { CliIo } from "./cli-io.ts";

const collect = (value: string, all: string[]) => [...all, value];

/** This package's version, as `svc --version` prints it. */
export const CLI_VERSION = (
  JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }
).version;

/** The trust options shared by `seal verify` and `seal render` (packages/cli/README.md, "Trust"). */
function withTrustOptions(command: Command): Command {
  return command
    .option("--key <pem>", "issuer public key to trust (repeatable)", collect, [])
    .option("--keys <json>", "trusted keys as served by GET /api/seal/keys")
    .option(
      "--issuer <url>",
      "the issuer (entitlement service): trust its published keys, ask it about revocation",
    );
}

/**
 * Runs `svc` with `argv` (without the node and script entries) and returns the exit code.
 * Errors are translated here, the CLI's one edge: a user error is one line and the exit status
 * its code has in the one exit table (CLI_EXITS), an unexpected failure INTERNAL.
 */
export async function runCli(argv: readonly string[], io: CliIo, env: NodeJS.ProcessEnv): Promise<number> {
  const config = readCliConfig(env);
  let exitCode: number = exitOf("DONE");
  const program = new Command("svc")
    .description("Operator and auditor commands of the svc audit platform.")
    .version(CLI_VERSION, "-V, --version", "print the version of svc")
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
  const seal = program.command("seal").description("Work with audit seals.");
  withTrustOptions(
    seal
      .command("verify")
      .description("Verify a seal: a seal.svg file, or a run output directory (its seal/ and its outputs).")
      .argument("<target>", "seal.svg, or a run output directory"),
  )
    .option("--json", "print the result as JSON")
    .action(async (target: string, options) => {
      const { runSealVerify } = await import("./commands/seal-verify.ts");
      const outcome = await runSealVerify(target, options, config);
      io.stdout(outcome.output);
      exitCode = outcome.exitCode;
    });
  withTrustOptions(
    seal
      .command("render")
      .description("Write the canonical image of a seal whose signature verifies with a key you trust.")
      .argument("<source>", "seal.svg, or seal.json (with seal.sig beside it or --sig)")
      .requiredOption("-o, --output <file>", "where to write the canonical seal.svg")
      .option("--sig <file>", "seal.sig for a seal.json source"),
  ).action(async (source: string, options) => {
    const { runSealRender } = await import("./commands/seal-render.ts");
    const outcome = await runSealRender(source, options, config);
    io.stdout(outcome.output);
    exitCode = outcome.exitCode;
  });
  // issue 23 item 3: auditors run this copy, never the verify.sh inside the folder they check.
  program
    .command("repro")
    .description("Work with a run's repro pack.")
    .command("verify-script")
    .description(`Print the released ${RUN_FILES.verifyScript} (run it, not the folder's own copy).`)
    .action(async () => {
      // @svc/core loads only when a command runs, so `svc --help` stays fast (issue 28 item 3)
      const { VERIFY_SCRIPT } = await import("@svc/core");
      io.stdout(VERIFY_SCRIPT);
    });
  // issue 30 item 5: a witness of the issuer's seal log
  withTrustOptions(
    program
      .command("log")
      .description("Witness an issuer's transparency log of seals.")
      .command("watch")
      .description(
        "Check that the issuer's latest log checkpoint extends the last one you saw (kept in your config folder); exits 15 on a rewritten or forked log.",
      ),
  ).action(async (options) => {
    const { runLogWatch } = await import("./commands/log-watch.ts");
    const outcome = await runLogWatch(options, config);
    io.stdout(outcome.output);
    exitCode = outcome.exitCode;
  });
  const trust = program.command("trust").description("Pin the issuer keys `svc seal verify` trusts.");
  trust
    .command("add")
    .description("Add a public key, or every key an issuer publishes, to your trust file.")
    .argument("[pem]", "an issuer public key (SPKI PEM)")
    .option("--issuer <url>", "fetch the keys from the issuer's GET /api/seal/keys")
    .action(async (pem: string | undefined, options: { issuer?: string }) => {
      const { runTrustAdd } = await import("./commands/trust-commands.ts");
      io.stdout(await runTrustAdd(pem, options, config));
    });
  trust
    .command("list")
    .description("List the keys of your trust file.")
    .action(async () => {
      const { runTrustList } = await import("./commands/trust-commands.ts");
      io.stdout(await runTrustList(config));
    });
  program
    .command("keys")
    .description("Make the seal signing key an entitlement service issues with.")
    .command("generate")
    .description(
      "Write a new Ed25519 seal signing key: signing-key.pem (PKCS#8 PEM, mode 0600) and signing-key.pub.pem (SPKI PEM).",
    )
    .option("--out <dir>", "folder to write both files in (created 0700 if missing)", ".")
    .action(async (options: { out: string }) => {
      // Loaded when run, like every command module, so `svc --help` stays fast (issue 28 item 3).
      const { runKeysGenerate } = await import("./commands/keys-commands.ts");
      io.stdout(await runKeysGenerate(options.out));
    });
  registerOperatorCommands(program, io, config, (code) => {
    exitCode = code;
  });
  try {
    await program.parseAsync([...argv], { from: "user" });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : exitOf("USAGE");
    if (error instanceof CliError) {
      io.stderr(`svc: ${error.message}\n`);
      return error.exitCode;
    }
    io.stderr(`svc: internal error: ${(error as Error).message}\n`);
    return exitOf("INTERNAL");
  }
}
