import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { sha256File } from "./digest.ts";
import { RUN_FILES, SCRATCH_DIR, SEAL_DIR, SEAL_FILES } from "./run-folder/run-files.ts";
import { digestTree, type TreeDigest } from "./tree-digest.ts";
import { compareUtf8 } from "./walk-tree.ts";

/** The run folder's manifest, whose SHA-256 the seal carries as `run_manifest_sha256`. */
export const RUN_MANIFEST_FILE = RUN_FILES.manifest;

/**
 * Never part of the sealed outputs: the seal itself, and the runner's scratch folder (on the
 * output volume while a run is in progress, removed on every exit path; issue 10 item 5).
 */
export function isOutsideSealedOutputs(relativePath: string): boolean {
  const top = relativePath.split("/")[0] ?? "";
  // `.scratch/`, or a shard pod's `.scratch-<index>/` (issue 10 item 9).
  return top === SEAL_DIR || top === SCRATCH_DIR || top.startsWith(`${SCRATCH_DIR}-`);
}

export interface SealedRunHashes {
  /** svc-tree/v1 digest of the run folder, `seal/` and the scratch folders excluded: the seal's `outputs_sha256`. */
  readonly outputs_sha256: string;
  /** SHA-256 of `run_manifest.json`, or null when the file is missing. */
  readonly run_manifest_sha256: string | null;
  /** Every file behind `outputs_sha256`, to name the ones that differ. */
  readonly outputs: TreeDigest;
}

/**
 * The two hashes run_complete seals, computed from a run folder (domain notes, "Seal"), the way
 * the runner's sealHashes computes them before sealing; `svc seal verify <run-dir>` recomputes
 * them with this function.
 */
export async function computeSealedRunHashes(runDir: string): Promise<SealedRunHashes> {
  const outputs = await digestTree(runDir, { exclude: isOutsideSealedOutputs });
  let manifest: string | null = null;
  try {
    manifest = (await sha256File(join(runDir, RUN_MANIFEST_FILE))).sha256;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  return { outputs_sha256: outputs.sha256, run_manifest_sha256: manifest, outputs };
}

/**
 * What the runner writes into `seal/` (runner `writeSealFolder`, `writePreseal`). Every one of them is checked byte for byte: seal.svg, seal.json and
 * seal.sig against the signature, VERIFY.md and public_key.pem against what the signed payload
 * reproduces, log-proof.json (issue 30; absent for an issuer without a log) as the record of the
 * seal's own leaf proved into a checkpoint a trusted key signed, provenance.intoto.jsonl (issue 30
 * item 6; absent likewise) as DSSE envelopes the seal's key signed over the issuer's statement of
 * exactly the sealed outputs. Anything else under `seal/` is
 * uncovered (issue 23 item 2).
 */
export const SEAL_FOLDER_ENTRIES = {
  sealed: [
    SEAL_FILES.instructions,
    SEAL_FILES.logProof,
    SEAL_FILES.provenance,
    SEAL_FILES.publicKey,
    SEAL_FILES.json,
    SEAL_FILES.signature,
    SEAL_FILES.svg,
  ],
  // `pending/`: where runners before issue 29 kept the state they first asked to seal (they
  // rewrote the outputs for a pre-seal); still accepted so those pre-seals check as before. A
  // pre-seal is never VERIFIED anyway.
  preseal: [SEAL_FILES.pending, SEAL_FILES.preseal, SEAL_FILES.presealSvg],
} as const;

/**
 * Every path of a run folder that nothing signed covers (issue 23 item 2): a person reads what
 * is in the folder, so what the hashes leave out must not pass silently.
 *
 * - a top-level scratch entry (`.scratch`, `.scratch-<anything>`: file or folder), which the
 *   svc-tree/v1 outputs digest leaves out; the runner removes its scratch before hashing;
 * - an entry of `seal/` that is not one `kind` of seal writes (a folder is named with a trailing `/`);
 * - an empty directory anywhere (svc-tree/v1 hashes files only, so its name is unsigned).
 *
 * Files elsewhere are under `outputs_sha256`, hidden ones included. Sorted by UTF-8 bytes.
 */
export async function listUncoveredPaths(
  runDir: string,
  kind: keyof typeof SEAL_FOLDER_ENTRIES,
): Promise<string[]> {
  const allowed = new Set<string>(SEAL_FOLDER_ENTRIES[kind]);
  const uncovered: string[] = [];
  for (const entry of await readdir(runDir, { withFileTypes: true })) {
    const name = entry.name;
    if (isOutsideSealedOutputs(name) && !(name === SEAL_DIR && entry.isDirectory())) {
      // scratch entries, and a `seal` that is not a folder (left out of the hash all the same)
      uncovered.push(entry.isDirectory() ? `${name}/` : name);
    } else if (name === SEAL_DIR) {
      const inner = await readdir(join(runDir, name), { withFileTypes: true });
      if (inner.length === 0) uncovered.push(`${SEAL_DIR}/`);
      for (const child of inner) {
        const path = `${SEAL_DIR}/${child.name}`;
        // Only `pending/` is a folder; every other seal entry is a regular file: a symbolic link
        // named seal.json is not the file the seal covers (verify.sh's find -type f agrees,
        // issue 38 item 7)
        const expected =
          allowed.has(child.name) &&
          (child.name === SEAL_FILES.pending ? child.isDirectory() : child.isFile());
        if (!expected) uncovered.push(child.isDirectory() ? `${path}/` : path);
        else if (child.isDirectory()) await collectEmptyDirs(runDir, path, uncovered);
      }
    } else if (entry.isDirectory()) {
      await collectEmptyDirs(runDir, name, uncovered);
    }
  }
  return uncovered.sort(compareUtf8);
}

/** Adds `relative/` when it is empty, else every empty directory below it. */
async function collectEmptyDirs(root: string, relative: string, out: string[]): Promise<void> {
  const entries = await readdir(join(root, relative), { withFileTypes: true });
  if (entries.length === 0) {
    out.push(`${relative}/`);
    return;
  }
  for (const entry of entries)
    if (entry.isDirectory()) await collectEmptyDirs(root, `${relative}/${entry.name}`, out);
}
