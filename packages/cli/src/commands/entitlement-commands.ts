import type { Command } from "commander";
import type { CliIo } from "../cli-io.ts";
import type { CliConfig } from "../config/cli-config.ts";
import { emit, formatTable } from "./command-output.ts";
import type { ContextOption } from "./command-session.ts";

// The session (contexts file, secrets, the services' clients) loads when a command runs, not for --help.
const sessionOpener = (config: CliConfig) => async (options: ContextOption) =>
  (await import("./command-session.ts")).openSession(options, config);

import { svcCommand } from "../config/svc-command.ts";
import { parseIntegerOption, parseMode } from "./parse-options.ts";

const PAGE = 1000;

/** `svc entitlement balance|issue|revoke|ledger` against the context's entitlement service. */
export function registerEntitlementCommands(program: Command, io: CliIo, config: CliConfig): void {
  const openSession = sessionOpener(config);
  const group = program
    .command("entitlement")
    .description("Runs: balances, grants, seal revocation, the ledger.");

  group
    .command("balance")
    .description("Your runs left by mode; --principal or --all (admin) for others'.")
    .option("--principal <principal>", "another principal's balance (admin token)")
    .option("--all", "every principal's balance (admin token)")
    .option("--context <name>", "context to use (default: current)")
    .option("--json", "print as JSON")
    .action(async (options: { principal?: string; all?: boolean; context?: string; json?: boolean }) => {
      const session = await openSession(options);
      const client = await session.entitlement();
      if (options.all || options.principal) {
        const admin = await session.adminToken();
        const rows: { principal: string; balances: { standard: number; deep: number } }[] = [];
        let after: string | undefined;
        for (;;) {
          const page = await client.principals(admin, { limit: PAGE, ...(after ? { after } : {}) });
          rows.push(...page.principals);
          if (page.next_after === null) break;
          after = page.next_after;
        }
        const shown = options.principal
          ? [
              rows.find((row) => row.principal === options.principal) ?? {
                principal: options.principal,
                balances: { standard: 0, deep: 0 },
              },
            ]
          : rows;
        emit(io, options.json, { principals: shown }, () =>
          formatTable(
            ["PRINCIPAL", "STANDARD", "DEEP"],
            shown.map((row) => [row.principal, String(row.balances.standard), String(row.balances.deep)]),
          ),
        );
        return;
      }
      const answer = await client.balance(await session.identityToken());
      emit(io, options.json, answer, () => [
        `${answer.principal}: ${answer.balances.standard} standard, ${answer.balances.deep} deep run(s) left`,
      ]);
    });

  group
    .command("issue")
    .description("Grant runs to a principal (admin token).")
    .argument("<principal>", "customer principal: e-mail or subject")
    .requiredOption("--runs <n>", "runs to grant (1-100000)")
    .option("--mode <mode>", "standard or deep", "standard")
    .option("--reason <text>", "why, recorded in the ledger")
    .option("--idempotency-key <key>", "a retried grant with the same key counts once")
    .option("--context <name>", "context to use (default: current)")
    .option("--json", "print as JSON")
    .action(
      async (
        principal: string,
        options: {
          runs: string;
          mode: string;
          reason?: string;
          idempotencyKey?: string;
          context?: string;
          json?: boolean;
        },
      ) => {
        const runs = parseIntegerOption("--runs", options.runs, 1, 100_000);
        const mode = parseMode(options.mode);
        const session = await openSession(options);
        const answer = await (await session.entitlement()).issue(await session.adminToken(), {
          principal,
          runs,
          mode,
          ...(options.reason ? { reason: options.reason } : {}),
          ...(options.idempotencyKey ? { idempotency_key: options.idempotencyKey } : {}),
        });
        emit(io, options.json, answer, () => [
          `${answer.replayed ? "already granted (same idempotency key)" : "granted"} ${answer.granted} ${answer.mode} run(s) to ${answer.principal}; ${answer.runs_remaining} left (ledger #${answer.ledger_entry_id})`,
        ]);
      },
    );

  group
    .command("revoke")
    .description(
      "Withdraw a seal issued by this service (admin token): online verify then reports it revoked.",
    )
    .argument("<seal-id>", "the seal id (svc seal verify prints it)")
    .requiredOption("--reason <text>", "why, recorded with the revocation")
    .option("--context <name>", "context to use (default: current)")
    .option("--json", "print as JSON")
    .action(async (sealId: string, options: { reason: string; context?: string; json?: boolean }) => {
      const session = await openSession(options);
      const answer = await (await session.entitlement()).revoke(await session.adminToken(), {
        seal_id: sealId,
        reason: options.reason,
      });
      emit(io, options.json, answer, () => [`seal ${answer.seal_id} revoked`]);
    });

  group
    .command("ledger")
    .description("Ledger lines, oldest first, newest last (admin token); --all pages through everything.")
    .option("--principal <principal>", "only this principal's lines")
    .option("--after <id>", "lines after this ledger id")
    .option("--limit <n>", "lines per page (1-1000)", "100")
    .option("--all", "every page, for audits and exports")
    .option("--context <name>", "context to use (default: current)")
    .option("--json", "print as JSON")
    .action(
      async (options: {
        principal?: string;
        after?: string;
        limit: string;
        all?: boolean;
        context?: string;
        json?: boolean;
      }) => {
        const limit = parseIntegerOption("--limit", options.limit, 1, 1000);
        let after =
          options.after === undefined
            ? undefined
            : parseIntegerOption("--after", options.after, 0, Number.MAX_SAFE_INTEGER);
        const session = await openSession(options);
        const admin = await session.adminToken();
        const client = await session.entitlement();
        const entries: Awaited<ReturnType<typeof client.ledger>>["entries"] = [];
        let next: number | null = null;
        for (;;) {
          const page = await client.ledger(admin, {
            limit,
            ...(options.principal ? { principal: options.principal } : {}),
            ...(after !== undefined ? { after } : {}),
          });
          entries.push(...page.entries);
          next = page.next_after;
          if (!options.all || next === null) break;
          after = next;
        }
        emit(io, options.json, { entries, next_after: options.all ? null : next }, () => [
          ...formatTable(
            ["ID", "WHEN", "KIND", "PRINCIPAL", "MODE", "DELTA", "LEFT", "RUN/SEAL", "ACTOR"],
            entries.map((entry) => [
              String(entry.id),
              entry.created_at,
              entry.kind,
              entry.principal,
              entry.mode,
              entry.delta > 0 ? `+${entry.delta}` : String(entry.delta),
              String(entry.runs_remaining_after),
              entry.run_id ?? entry.seal_id ?? "-",
              entry.actor,
            ]),
          ),
          ...(!options.all && next !== null
            ? [
                `more: ${svcCommand()} entitlement ledger --after ${next}${options.principal ? ` --principal ${options.principal}` : ""}`,
              ]
            : []),
        ]);
      },
    );
}
