#!/usr/bin/env node
// `svc-entitlement`: serve (default) and mint-dev-token. Thin: the work is in src/.
import { resolve } from "node:path";
import { runService } from "@svc/http-edge";
import { Command, InvalidArgumentError } from "commander";
import { devIssuerUrl, loadOrCreateDevIssuerKey, mintDevToken } from "../src/auth/dev-issuer.ts";
import { readConfig } from "../src/config.ts";
import { ConfigProblems, ENTITLEMENT_SERVICE } from "../src/main.ts";

const program = new Command("svc-entitlement").description("Entitlement and seal service");

program
  .command("serve", { isDefault: true })
  .description("run the HTTP service (config from environment variables, see README)")
  .action(async () => {
    // start-up, the refusals (exit 2), SIGTERM/SIGINT and the drain: http-edge's one runService
    await runService(ENTITLEMENT_SERVICE);
  });

const positiveInt = (value: string) => {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) throw new InvalidArgumentError("expected a positive integer");
  return parsed;
};

program
  .command("mint-dev-token")
  .description("print an ID token of the built-in dev issuer for a principal (embedded/dev mode)")
  .requiredOption("--principal <principal>", "subject of the token")
  .option(
    "--audience <audience>",
    "aud (default SVC_AUDIENCE, SVC_PUBLIC_URL or http://127.0.0.1:<PORT|8080>)",
  )
  .option("--issuer <issuer>", "iss (default <SVC_PUBLIC_URL or audience>/dev-issuer)")
  .option(
    "--data-dir <dir>",
    "data dir holding the dev issuer key (default SVC_DATA_DIR or ./.data/entitlement)",
  )
  .option("--ttl-sec <seconds>", "lifetime in seconds", positiveInt, 3600)
  .action(
    async (options: {
      principal: string;
      audience?: string;
      issuer?: string;
      dataDir?: string;
      ttlSec: number;
    }) => {
      // The settings come from the config module, validated as the service validates them
      // (ARCHITECTURE.md convention 4), so the token names the audience and issuer it will check.
      const result = readConfig(process.env);
      if (!result.ok) {
        console.error(new ConfigProblems(result.problems).message);
        process.exit(2);
      }
      const config = result.config;
      const audience =
        options.audience ?? config.audience ?? config.publicUrl ?? `http://127.0.0.1:${config.port}`;
      const issuer = options.issuer ?? devIssuerUrl(config.publicUrl ?? audience);
      const key = await loadOrCreateDevIssuerKey(resolve(options.dataDir ?? config.dataDir));
      process.stdout.write(
        `${await mintDevToken({ key, issuer, audience, principal: options.principal, ttlSec: options.ttlSec })}\n`,
      );
    },
  );

await program.parseAsync(process.argv);
