import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { loadRDKit, type Mol, parseSmiles, type RDKit } from "../../src/rdkit.ts";

/** Debian's python3-rdkit: the python3 first on PATH may have no RDKit. */
export const NATIVE_PYTHON = "/usr/bin/python3";
/** Debian rdkit-data's NCI set: 4,999 SMILES with NCI numbers. */
export const NCI_5K = "/usr/share/RDKit/Data/NCI/first_5K.smi";

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

/** The NCI set as [smiles, id] pairs, in file order. */
export function readNci(text: string): [string, string][] {
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      const [smiles = "", id = ""] = line.trim().split(/\s+/);
      return [smiles, id];
    });
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

/**
 * Hands `check` each of `molecules` that native answered for and RDKit.js parses, with native's
 * answer; the molecule is freed after. Returns how many were compared.
 */
export function eachParsedWithNative<T>(
  rdkit: RDKit,
  molecules: Iterable<readonly [smiles: string, id: string]>,
  native: Readonly<Record<string, T>>,
  check: (mol: Mol, expected: T, id: string) => void,
): number {
  let compared = 0;
  for (const [smiles, id] of molecules) {
    const expected = native[id];
    if (expected === undefined) continue;
    const parsed = parseSmiles(rdkit, smiles);
    if (!("mol" in parsed)) continue;
    try {
      check(parsed.mol, expected, id);
      compared++;
    } finally {
      parsed.mol.delete();
    }
  }
  return compared;
}

/** `read(rdkit, mol)` on `smiles`, which RDKit.js must parse; the molecule is freed after. */
export async function ofParsed<T>(smiles: string, read: (rdkit: RDKit, mol: Mol) => T): Promise<T> {
  const rdkit = await loadRDKit();
  const parsed = parseSmiles(rdkit, smiles);
  assert.ok("mol" in parsed, smiles);
  try {
    return read(rdkit, parsed.mol);
  } finally {
    parsed.mol.delete();
  }
}
