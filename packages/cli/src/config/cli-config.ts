import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";
// core's one config reader, by its own entry: `svc --help` must not load the rest of @svc/core.
import { createEnvReader } from "@svc/core/env-reader";
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

/**
 * Reads the configuration from `env` with core's reader (values trimmed, blank = unset); relative
 * or empty XDG paths are ignored, as the XDG spec says. Nothing here can be refused.
 */
export function readCliConfig(env: NodeJS.ProcessEnv): CliConfig {
  const read = createEnvReader(env);
  const explicit = read.string("SVC_TRUSTED_KEYS");
  const xdg = read.string("XDG_CONFIG_HOME");
  // XDG Base Directory Specification: a relative $XDG_CONFIG_HOME is invalid and ignored.
  const configHome = xdg && isAbsolute(xdg) ? xdg : join(read.string("HOME") ?? homedir(), ".config");
  const folder = join(configHome, "svc");
  return Object.freeze({
    trustFile: explicit ?? join(folder, "trusted-keys.json"),
    trustFileExplicit: explicit !== undefined,
    witnessFile: join(folder, "log-witness.json"),
    contextsFile: join(folder, "config.json"),
    contextName: read.string("SVC_CONTEXT"),
    kubeconfig: read.string("KUBECONFIG"),
    hintCommand: svcCommand(env),
    env: Object.freeze({ ...env }),
  });
}
