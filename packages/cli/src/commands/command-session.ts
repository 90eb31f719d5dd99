import { CliError } from "../cli-error.ts";
import type { CliConfig } from "../config/cli-config.ts";
import { loadContextsFile, pickContext, type SvcContext } from "../config/contexts-file.ts";
import { adminTokenOf, preflightTokenOf } from "../config/credential-values.ts";
import { resolveSecret } from "../config/resolve-secret.ts";
import { formatSecretRef } from "../config/secret-ref.ts";
import { svcCommand } from "../config/svc-command.ts";
import type { EntitlementClient } from "../http/entitlement-client.ts";
import type { PreflightClient } from "../http/preflight-client.ts";

/** The context a command runs in: the chosen endpoints and lazily read credentials. */
export interface CommandSession {
  readonly contextName: string;
  readonly context: SvcContext;
  preflight(): Promise<PreflightClient>;
  /** The namespace of runs: `--namespace`, else the context's, else none (the service's allow list). */
  namespace(explicit: string | undefined): string | undefined;
  entitlement(): Promise<EntitlementClient>;
  identityToken(): Promise<string>;
  adminToken(): Promise<string>;
}

/** Options every context-using command takes. */
export interface ContextOption {
  context?: string;
}

/** Loads the config, picks the context and returns the session; nothing secret is read yet. */
export async function openSession(options: ContextOption, config: CliConfig): Promise<CommandSession> {
  const contexts = await loadContextsFile(config.contextsFile);
  const { name, context } = pickContext(contexts, options.context ?? config.contextName);
  const where = { env: config.env, ...(config.kubeconfig ? { kubeconfig: config.kubeconfig } : {}) };
  const need = (what: string, flag: string): never => {
    throw new CliError(
      "CONTEXT_INCOMPLETE",
      `context "${name}" has no ${what}: run ${svcCommand()} context add ${name} ${flag} ...`,
    );
  };
  return {
    contextName: name,
    context,
    async preflight() {
      const preflight = context.preflight ?? need("preflight URL", "--preflight-url");
      const token = preflight.token ? preflightTokenOf(await resolveSecret(preflight.token, where)) : null;
      const hint = preflight.token
        ? `check the token in ${formatSecretRef(preflight.token)} (context "${name}")`
        : `context "${name}" has no preflight token: add one with ${svcCommand()} context add ${name} --preflight-token <source>`;
      // The services' packages (their schemas) load only when a command calls them: `svc --help` stays fast.
      const { createPreflightClient } = await import("../http/preflight-client.ts");
      return createPreflightClient(preflight.url, token, hint);
    },
    namespace: (explicit) => explicit ?? context.preflight?.namespace,
    async entitlement() {
      const entitlement = context.entitlement ?? need("entitlement URL", "--entitlement-url");
      const { createEntitlementClient } = await import("../http/entitlement-client.ts");
      return createEntitlementClient(
        entitlement.url,
        `check the identity and admin token sources of context "${name}" (${svcCommand()} context list)`,
      );
    },
    async identityToken() {
      const ref = context.entitlement?.identity ?? need("identity source", "--identity");
      return resolveSecret(ref, where);
    },
    async adminToken() {
      const ref = context.entitlement?.admin ?? need("admin token source", "--admin-token");
      return adminTokenOf(await resolveSecret(ref, where));
    },
  };
}
