import type { Command } from "commander";
import { CliError } from "../cli-error.ts";
import type { CliIo } from "../cli-io.ts";
import type { CliConfig } from "../config/cli-config.ts";
import type { SvcContext } from "../config/contexts-file.ts";
import type { formatSecretRef as FormatSecretRef } from "../config/secret-ref.ts";
import { svcCommand } from "../config/svc-command.ts";
import { emit, formatTable } from "./command-output.ts";

interface AddOptions {
  preflightUrl?: string;
  preflightToken?: string;
  namespace?: string;
  entitlementUrl?: string;
  identity?: string;
  adminToken?: string;
  use?: boolean;
  json?: boolean;
}

function checkUrl(option: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new CliError("INPUT_INVALID", `${option} "${value}" is not a URL: give e.g. http://127.0.0.1:8080`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new CliError("INPUT_INVALID", `${option} must be an http(s) URL`);
  if (url.username || url.password)
    throw new CliError("INPUT_INVALID", `${option} must not carry credentials: use a token source instead`);
  return url.toString().replace(/\/$/, "");
}

/** What a context shows: URLs and where secrets come from, never a secret. */
function describeContext(context: SvcContext, formatSecretRef: typeof FormatSecretRef) {
  return {
    preflight: context.preflight
      ? {
          url: context.preflight.url,
          token: context.preflight.token ? formatSecretRef(context.preflight.token) : null,
          namespace: context.preflight.namespace ?? null,
        }
      : null,
    entitlement: context.entitlement
      ? {
          url: context.entitlement.url,
          identity: context.entitlement.identity ? formatSecretRef(context.entitlement.identity) : null,
          admin: context.entitlement.admin ? formatSecretRef(context.entitlement.admin) : null,
        }
      : null,
  };
}

/** `svc context add|use|list`: named endpoints in `$XDG_CONFIG_HOME/svc/config.json` (0600). */
export function registerContextCommands(program: Command, io: CliIo, cliConfig: CliConfig): void {
  const context = program
    .command("context")
    .description("Named endpoints and where their credentials come from.");
  context
    .command("add")
    .description(
      "Add or update a context (secrets are referenced, never stored: file:<path>, env:<VAR>, k8s:<ns>/<secret>#<key>).",
    )
    .argument("<name>", "context name")
    .option("--preflight-url <url>", "preflight service URL")
    .option("--preflight-token <source>", "where the preflight API token is")
    .option("--namespace <namespace>", "namespace runs are launched in")
    .option("--entitlement-url <url>", "entitlement service URL")
    .option("--identity <source>", "where your identity token (OIDC ID token) is")
    .option("--admin-token <source>", "where the entitlement admin token is")
    .option("--use", "make it the current context")
    .option("--json", "print the context as JSON")
    .action(async (name: string, options: AddOptions) => {
      if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/.test(name))
        throw new CliError("INPUT_INVALID", "the context name must be 1-63 letters, digits, '.', '_' or '-'");
      const { loadContextsFile, saveContextsFile } = await import("../config/contexts-file.ts");
      const { formatSecretRef, parseSecretRef } = await import("../config/secret-ref.ts");
      const path = cliConfig.contextsFile;
      const config = await loadContextsFile(path);
      const previous = config.contexts[name] ?? {};
      const preflightUrl = options.preflightUrl
        ? checkUrl("--preflight-url", options.preflightUrl)
        : previous.preflight?.url;
      const entitlementUrl = options.entitlementUrl
        ? checkUrl("--entitlement-url", options.entitlementUrl)
        : previous.entitlement?.url;
      if ((options.preflightToken || options.namespace) && !preflightUrl)
        throw new CliError("INPUT_INVALID", "--preflight-token and --namespace need --preflight-url");
      if ((options.identity || options.adminToken) && !entitlementUrl)
        throw new CliError("INPUT_INVALID", "--identity and --admin-token need --entitlement-url");
      if (!preflightUrl && !entitlementUrl)
        throw new CliError("INPUT_INVALID", "give --preflight-url, --entitlement-url or both");
      const next: SvcContext = {
        ...(preflightUrl
          ? {
              preflight: {
                url: preflightUrl,
                ...(options.preflightToken
                  ? { token: parseSecretRef("--preflight-token", options.preflightToken) }
                  : previous.preflight?.token
                    ? { token: previous.preflight.token }
                    : {}),
                ...((options.namespace ?? previous.preflight?.namespace)
                  ? { namespace: options.namespace ?? previous.preflight?.namespace }
                  : {}),
              },
            }
          : {}),
        ...(entitlementUrl
          ? {
              entitlement: {
                url: entitlementUrl,
                ...(options.identity
                  ? { identity: parseSecretRef("--identity", options.identity) }
                  : previous.entitlement?.identity
                    ? { identity: previous.entitlement.identity }
                    : {}),
                ...(options.adminToken
                  ? { admin: parseSecretRef("--admin-token", options.adminToken) }
                  : previous.entitlement?.admin
                    ? { admin: previous.entitlement.admin }
                    : {}),
              },
            }
          : {}),
      };
      config.contexts[name] = next;
      if (options.use || config.current === null) config.current = name;
      await saveContextsFile(path, config);
      emit(
        io,
        options.json,
        { name, current: config.current === name, ...describeContext(next, formatSecretRef) },
        () => [`context "${name}" saved in ${path}${config.current === name ? " (current)" : ""}`],
      );
    });
  context
    .command("use")
    .description("Make a context the current one.")
    .argument("<name>", "context name")
    .option("--json", "print as JSON")
    .action(async (name: string, options: { json?: boolean }) => {
      const { loadContextsFile, saveContextsFile } = await import("../config/contexts-file.ts");
      const path = cliConfig.contextsFile;
      const config = await loadContextsFile(path);
      if (!config.contexts[name])
        throw new CliError(
          "CONTEXT_NOT_FOUND",
          `no context "${name}"; known: ${Object.keys(config.contexts).join(", ") || "none"} (${svcCommand()} context add ${name} ...)`,
        );
      config.current = name;
      await saveContextsFile(path, config);
      emit(io, options.json, { current: name }, () => [`using context "${name}"`]);
    });
  context
    .command("list")
    .description("List contexts: URLs and credential sources (never the credentials).")
    .option("--json", "print as JSON")
    .action(async (options: { json?: boolean }) => {
      const { loadContextsFile } = await import("../config/contexts-file.ts");
      const { formatSecretRef } = await import("../config/secret-ref.ts");
      const config = await loadContextsFile(cliConfig.contextsFile);
      const contexts = Object.entries(config.contexts).map(([name, value]) => ({
        name,
        current: config.current === name,
        ...describeContext(value, formatSecretRef),
      }));
      emit(io, options.json, { current: config.current, contexts }, () =>
        contexts.length === 0
          ? [
              `no contexts yet: ${svcCommand()} context add <name> --preflight-url <url> --preflight-token <source>`,
            ]
          : formatTable(
              ["", "NAME", "PREFLIGHT", "TOKEN", "ENTITLEMENT", "IDENTITY", "ADMIN"],
              contexts.map((entry) => [
                entry.current ? "*" : "",
                entry.name,
                entry.preflight?.url ?? "-",
                entry.preflight?.token ?? "-",
                entry.entitlement?.url ?? "-",
                entry.entitlement?.identity ?? "-",
                entry.entitlement?.admin ?? "-",
              ]),
            ),
      );
    });
}
