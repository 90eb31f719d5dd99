import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";

/** The environment `svc` reads (packages/cli/README.md, "Configuration"), read once at start. */
export interface CliConfig {
  /** The user's trust file: `SVC_TRUSTED_KEYS`, else `$XDG_CONFIG_HOME/svc/trusted-keys.json`. */
  readonly trustFile: string;
  /** True when `SVC_TRUSTED_KEYS` named it: then it must exist. */
  readonly trustFileExplicit: boolean;
  /** The checkpoints `svc log watch` last saw: `$XDG_CONFIG_HOME/svc/log-witness.json` (issue 30 item 5). */
  readonly witnessFile: string;
}

/** Reads the configuration from `env`; relative or empty XDG paths are ignored, as the XDG spec says. */
export function readCliConfig(env: NodeJS.ProcessEnv): CliConfig {
  const explicit = env.SVC_TRUSTED_KEYS?.trim();
  const xdg = env.XDG_CONFIG_HOME?.trim();
  // XDG Base Directory Specification: a relative $XDG_CONFIG_HOME is invalid and ignored.
  const configHome = xdg && isAbsolute(xdg) ? xdg : join(env.HOME?.trim() || homedir(), ".config");
  const witnessFile = join(configHome, "svc", "log-witness.json");
  if (explicit) return Object.freeze({ trustFile: explicit, trustFileExplicit: true, witnessFile });
  return Object.freeze({
    trustFile: join(configHome, "svc", "trusted-keys.json"),
    trustFileExplicit: false,
    witnessFile,
  });
}
