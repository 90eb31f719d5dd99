import { existsSync } from "node:fs";
import { copyFile, mkdir, readFile, rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { sha256File, type TreeEntry, treeListingSha256 } from "@svc/core";
import { RunnerError } from "../runner-error.ts";
import { writeJsonAtomic } from "./atomic-write.ts";
import { REPORT_FILE } from "./build-results.ts";
import { EXPECTED_HASHES } from "./repro-pack.ts";

/** The files a pre-seal rewrites to say `pending_online_verification`. */
export const SEAL_STATUS_FILES = ["results/summary.json", REPORT_FILE, EXPECTED_HASHES] as const;
/** Rewritten too when present: the PDF is printed only where Chromium is installed. */
const OPTIONAL_SEAL_STATUS_FILES = ["results/report.pdf"] as const;

const PENDING_DIR = join("seal", "pending");
const STATE_FILE = join(PENDING_DIR, "sealed-state.json");

/** The hashes run_complete was asked to seal (the outputs as they say `sealed`). */
export interface SealedState {
  readonly outputs_sha256: string;
  readonly run_manifest_sha256: string;
}

/**
 * Keeps the exact state run_complete was asked to seal before a pre-seal rewrites the seal status.
 * `svc-runner seal` later seals that same state, which is right in both cases it cannot tell
 * apart: run_complete never reached the service, or it was recorded and only its reply was lost
 * (the service then returns the same seal for the same hashes, where other hashes would be 409).
 * Kept under seal/, which the outputs hash leaves out.
 */
export async function keepSealedState(runDir: string, state: SealedState): Promise<void> {
  const kept: string[] = [];
  for (const file of [...SEAL_STATUS_FILES, ...OPTIONAL_SEAL_STATUS_FILES]) {
    const optional = (OPTIONAL_SEAL_STATUS_FILES as readonly string[]).includes(file);
    if (optional && !existsSync(join(runDir, file))) continue;
    const copy = join(runDir, PENDING_DIR, "files", file);
    await mkdir(dirname(copy), { recursive: true });
    await copyFile(join(runDir, file), copy);
    kept.push(file);
  }
  await writeJsonAtomic(join(runDir, STATE_FILE), {
    schema: "svc.sealed-state/v1",
    outputs_sha256: state.outputs_sha256,
    run_manifest_sha256: state.run_manifest_sha256,
    files: kept,
  });
}

/** Reads what {@link keepSealedState} kept; RUN_DIR_INVALID when it is missing or malformed. */
export async function readSealedState(runDir: string): Promise<SealedState> {
  const path = join(runDir, STATE_FILE);
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(await readFile(path, "utf8")) as Record<string, unknown>;
  } catch {
    throw new RunnerError(
      "RUN_DIR_INVALID",
      `${path} is missing or not JSON: the pre-seal cannot be completed`,
    );
  }
  const { outputs_sha256, run_manifest_sha256 } = parsed;
  if (typeof outputs_sha256 !== "string" || !/^[0-9a-f]{64}$/.test(outputs_sha256)) {
    throw new RunnerError("RUN_DIR_INVALID", `${path}: outputs_sha256 is not a SHA-256`);
  }
  if (typeof run_manifest_sha256 !== "string" || !/^[0-9a-f]{64}$/.test(run_manifest_sha256)) {
    throw new RunnerError("RUN_DIR_INVALID", `${path}: run_manifest_sha256 is not a SHA-256`);
  }
  return { outputs_sha256, run_manifest_sha256 };
}

/** Puts the kept files back (each an atomic rename) and removes the pending folder. */
export async function restoreSealedState(runDir: string): Promise<void> {
  for (const file of SEAL_STATUS_FILES) {
    await rename(join(runDir, PENDING_DIR, "files", file), join(runDir, file));
  }
  for (const file of OPTIONAL_SEAL_STATUS_FILES) {
    const copy = join(runDir, PENDING_DIR, "files", file);
    if (existsSync(copy)) await rename(copy, join(runDir, file));
  }
  await rm(join(runDir, PENDING_DIR), { recursive: true, force: true });
}

/**
 * The files behind the kept state's `outputs_sha256` (issue 30 item 6: the provenance's subjects
 * when `svc-runner seal` completes a pre-seal): the folder's files as they are now, each rewritten
 * seal-status file taken at its kept copy. Null unless they hash to exactly the kept state.
 */
export async function sealedStateFiles(
  runDir: string,
  now: readonly TreeEntry[],
  state: SealedState,
): Promise<TreeEntry[] | null> {
  const files: TreeEntry[] = [];
  for (const entry of now) {
    const copy = join(runDir, PENDING_DIR, "files", entry.path);
    files.push(existsSync(copy) ? { path: entry.path, ...(await sha256File(copy)) } : entry);
  }
  return treeListingSha256(files) === state.outputs_sha256 ? files : null;
}
