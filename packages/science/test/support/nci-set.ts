import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { loadRDKit, type Mol, parseSmiles, type RDKit } from "../../src/rdkit.ts";

// The NCI set and the in-process helpers that compare RDKit.js with native answers. Kept apart from
// native-rdkit.ts, which starts python3 when imported: a test that reads stored native answers
// (native-oracles.ts) imports only this file and starts no process (issue 41 item 4).

/** Debian rdkit-data's NCI set: 4,999 SMILES with NCI numbers. */
export const NCI_5K = "/usr/share/RDKit/Data/NCI/first_5K.smi";

/** Why the NCI set cannot be read here (Debian rdkit-data missing), or null when it can. */
export const nciMissing: string | null = existsSync(NCI_5K) ? null : `${NCI_5K} missing (Debian rdkit-data)`;

/** In CI (`CI=true`, where `.ci/run` installs rdkit-data) a missing NCI set is a failure, never a skip. */
export function assertNciInCi(): void {
  if (nciMissing !== null && process.env.CI === "true")
    throw new Error(`NCI set unavailable in CI: ${nciMissing}`);
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
