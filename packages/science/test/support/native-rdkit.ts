import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { NCI_5K } from "./nci-set.ts";

export { eachParsedWithNative, NCI_5K, ofParsed, readNci } from "./nci-set.ts";

/** Debian's python3-rdkit: the python3 first on PATH may have no RDKit. */
export const NATIVE_PYTHON = "/usr/bin/python3";

function probe(): string | null {
  if (!existsSync(NATIVE_PYTHON)) return `${NATIVE_PYTHON} missing (Debian python3-rdkit)`;
  if (spawnSync(NATIVE_PYTHON, ["-c", "import rdkit"]).status !== 0) return "python3-rdkit is not installed";
  if (!existsSync(NCI_5K)) return `${NCI_5K} missing (Debian rdkit-data)`;
  return null;
}

/**
 * Why native RDKit cannot be used here, or null when it can. In CI (`CI=true`, where `.ci/run`
 * installs python3-rdkit and rdkit-data) a missing reference is a failure, never a skip.
 */
export const nativeMissing: string | null = probe();

export function assertNativeInCi(): void {
  if (nativeMissing !== null && process.env.CI === "true")
    throw new Error(`native RDKit reference unavailable in CI: ${nativeMissing}`);
}

/** Runs one of `test/native/*.py` with native RDKit and parses its JSON stdout. */
export function runNative<T>(script: string, args: readonly string[] = []): T {
  const path = fileURLToPath(new URL(`../native/${script}`, import.meta.url));
  const out = execFileSync(NATIVE_PYTHON, [path, ...args], {
    encoding: "utf8",
    maxBuffer: 512 * 1024 * 1024,
    stdio: ["ignore", "pipe", "pipe"],
  });
  return JSON.parse(out) as T;
}

/** Runs one of `test/native/*.py` on `smiles id` lines given on stdin (`-`) and parses its JSON stdout. */
export function runNativeOnInput<T>(script: string, input: string, args: readonly string[] = []): T {
  const path = fileURLToPath(new URL(`../native/${script}`, import.meta.url));
  const out = execFileSync(NATIVE_PYTHON, [path, "-", ...args], {
    input,
    encoding: "utf8",
    maxBuffer: 512 * 1024 * 1024,
    stdio: ["pipe", "pipe", "pipe"],
  });
  return JSON.parse(out) as T;
}
