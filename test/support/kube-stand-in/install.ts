import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { findFreePort } from "@svc/testing";
import { ensureHelm } from "../helm.ts";
import { ensureKubectl } from "../kubectl-binary.ts";
import { repoRoot } from "../repo-root.ts";

/** The kubectl and helm stand-ins installed in a bin directory; see kubectl.ts and helm.ts here. */
export interface KubeStandIns {
  /** Put first on PATH: holds `kubectl` and `helm`. */
  bin: string;
  /** Every accepted call, in order. */
  calls(): Promise<{ program: "kubectl" | "helm"; args: string[] }[]>;
}

const quote = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`;

/**
 * Writes `kubectl` and `helm` into `<dir>/bin` (dir owned by the caller, who removes it). They act
 * on the API double named by the caller's $KUBECONFIG; the real kubectl and Helm binaries (from the
 * npm layer zip) check every command line first against a server that refuses connections.
 */
export async function installKubeStandIns(dir: string): Promise<KubeStandIns> {
  const bin = join(dir, "bin");
  const state = join(dir, "state");
  await mkdir(bin, { recursive: true });
  await mkdir(state, { recursive: true });
  const port = await findFreePort();
  const unreachable = join(state, "unreachable.kubeconfig");
  await writeFile(
    unreachable,
    JSON.stringify({
      apiVersion: "v1",
      kind: "Config",
      clusters: [{ name: "closed", cluster: { server: `http://127.0.0.1:${port}` } }],
      users: [{ name: "nobody", user: { token: "unused" } }],
      contexts: [{ name: "closed", context: { cluster: "closed", user: "nobody" } }],
      "current-context": "closed",
    }),
    { mode: 0o600 },
  );
  await writeFile(join(state, "calls.jsonl"), "");
  const helmHome = join(repoRoot, ".tools", "helm", "home");
  const env: Record<string, string> = {
    SVC_STAND_IN_REAL_KUBECTL: await ensureKubectl(),
    SVC_STAND_IN_REAL_HELM: await ensureHelm(),
    SVC_STAND_IN_STATE: state,
    SVC_UNREACHABLE_KUBECONFIG: unreachable,
    SVC_UNREACHABLE_SERVER: `127.0.0.1:${port}`,
    HELM_CACHE_HOME: join(helmHome, "cache"),
    HELM_CONFIG_HOME: join(helmHome, "config"),
    HELM_DATA_HOME: join(helmHome, "data"),
  };
  for (const program of ["kubectl", "helm"]) {
    const exports = Object.entries(env)
      .map(([name, value]) => `export ${name}=${quote(value)}`)
      .join("\n");
    const script = join(repoRoot, "test", "support", "kube-stand-in", `${program}.ts`);
    await writeFile(
      join(bin, program),
      `#!/bin/sh\n${exports}\nexec ${quote(process.execPath)} ${quote(script)} "$@"\n`,
    );
    await chmod(join(bin, program), 0o755);
  }
  return {
    bin,
    calls: async () =>
      (await readFile(join(state, "calls.jsonl"), "utf8"))
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { program: "kubectl" | "helm"; args: string[] }),
  };
}
