import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";
import { svcCommand } from "./svc-command.ts";

/**
 * The environment `svc` reads (packages/cli/README.md, "Configuration"), read once at start by
 * `runCli` — the CLI's one config (issue 29 item 5): commands take it, never `process.env`.
 */
export interface CliConfig {
  /** The user's trust file: `SVC_TRUSTED_KEYS`, else `$XDG_CONFIG_HOME/svc/trusted-keys.json`. */
  readonly trustFile: string;
  /** True when `SVC_TRUSTED_KEYS` named it: then it must exist. */
  readonly trustFileExplicit: boolean;
  /** The checkpoints `svc log watch` last saw: `$XDG_CONFIG_HOME/svc/log-witness.json` (issue 30 item 5). */
  readonly witnessFile: string;
  /** The contexts (`svc context add`): `$XDG_CONFIG_HOME/svc/config.json`. */
  readonly contextsFile: string;
  /** `SVC_CONTEXT`: the context to use when `--context` is not given (before the file's current one). */
  readonly contextName: string | undefined;
  /** `KUBECONFIG`, for `k8s:` secret references. */
  readonly kubeconfig: string | undefined;
  /** How printed hints spell svc (`SVC_HINT_COMMAND`, `npx svc` under npx, else `svc`). */
  readonly hintCommand: string;
  /**
   * The environment as the process received it: what `env:<VAR>` secret references name, and what
   * the processes `svc local run` starts inherit.
   */
  readonly env: Readonly<NodeJS.ProcessEnv>;
}

/** The part of the config trust and seal verification read (the trust and witness files). */
export type TrustFiles = Pick<CliConfig, "trustFile" | "trustFileExplicit" | "witnessFile">;

const nonEmpty = (value: string | undefined): string | undefined => {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === "" ? undefined : trimmed;
};

/** Reads the configuration from `env`; relative or empty XDG paths are ignored, as the XDG spec says. */
export function readCliConfig(env: NodeJS.ProcessEnv): CliConfig {
  const explicit = nonEmpty(env.SVC_TRUSTED_KEYS);
  const xdg = nonEmpty(env.XDG_CONFIG_HOME);
  // XDG Base Directory Specification: a relative $XDG_CONFIG_HOME is invalid and ignored.
  const configHome = xdg && isAbsolute(xdg) ? xdg : join(nonEmpty(env.HOME) ?? homedir(), ".config");
  const folder = join(configHome, "svc");
  return Object.freeze({
    trustFile: explicit ?? join(folder, "trusted-keys.json"),
    trustFileExplicit: explicit !== undefined,
    witnessFile: join(folder, "log-witness.json"),
    contextsFile: join(folder, "config.json"),
    contextName: nonEmpty(env.SVC_CONTEXT),
    kubeconfig: nonEmpty(env.KUBECONFIG),
    hintCommand: svcCommand(env),
    env: Object.freeze({ ...env }),
  });
}
