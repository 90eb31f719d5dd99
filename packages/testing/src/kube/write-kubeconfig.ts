import { writeFile } from "node:fs/promises";
import { join } from "node:path";

/** Options of {@link writeKubeconfig}. */
export interface WriteKubeconfigOptions {
  /** API server URL, e.g. the API double's `url`. */
  server: string;
  /** Bearer token of the kubeconfig user. */
  token?: string;
  /** Context names; the first is the current context. Default `["double"]`. */
  contexts?: string[];
  /** Default namespace of every context. */
  namespace?: string;
  /** Directory to write into, owned by the caller (e.g. from makeTempDir), who removes it. */
  dir: string;
}

/**
 * Writes a kubeconfig whose contexts all point at `server` and returns its path. It is written as
 * JSON, which is valid YAML, so every kubeconfig loader reads it.
 */
export async function writeKubeconfig(options: WriteKubeconfigOptions): Promise<string> {
  const dir = options.dir;
  const contexts = options.contexts ?? ["double"];
  const config = {
    apiVersion: "v1",
    kind: "Config",
    // client-node refuses plain http unless TLS verification is explicitly skipped; the double
    // listens on loopback http, so that is the only way to reach it.
    clusters: [
      {
        name: "double",
        cluster: {
          server: options.server,
          ...(options.server.startsWith("http:") ? { "insecure-skip-tls-verify": true } : {}),
        },
      },
    ],
    users: [{ name: "double-user", user: options.token === undefined ? {} : { token: options.token } }],
    contexts: contexts.map((name) => ({
      name,
      context: {
        cluster: "double",
        user: "double-user",
        ...(options.namespace ? { namespace: options.namespace } : {}),
      },
    })),
    "current-context": contexts[0],
  };
  const path = join(dir, "kubeconfig");
  await writeFile(path, JSON.stringify(config, null, 2), { mode: 0o600 });
  return path;
}
