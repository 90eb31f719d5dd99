import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import {
  isSafeId,
  RUN_STATUS_DIR,
  type RunFolder,
  type RunFolderSeal,
  type RunHighlights,
  type RunStatus,
  readRunFolder,
} from "@svc/core";
import type { RunOutputFacts } from "./run-state.ts";

/**
 * The largest run-folder JSON file preflight reads (a summary is a few KB): the folders are the
 * runner's, but the volume is shared, and a huge file must cost a refusal, not the service's memory.
 */
const MAX_JSON_BYTES = 4 * 1024 * 1024;

/** A run folder read through core's contract, with preflight's size bound. */
export function runFolderOf(outputRoot: string, runId: string): RunFolder {
  return readRunFolder(join(outputRoot, runId), { maxJsonBytes: MAX_JSON_BYTES });
}

/**
 * Facts about a run folder the state derivation needs (issue 41 item 1): the status record says
 * where the seal stands, so `seal/` is read only without a record (a folder from before records,
 * whose state is derived from its files) or when the record says sealed (it is held to the folder,
 * issue 38 item 5); results/summary.json is looked for only without a record.
 */
export async function readRunOutputFacts(run: RunFolder, record: RunStatus | null): Promise<RunOutputFacts> {
  const info = await stat(run.dir);
  // birthtime is 0 on file systems without it; the folder's mtime is then the best we have.
  const created = info.birthtimeMs > 0 ? info.birthtime : info.mtime;
  const readSeal = record === null || record.seal.status === "sealed";
  return {
    seal: readSeal ? await run.seal() : null,
    hasSummary: record === null ? await run.hasFile("summary") : null,
    createdAt: created.toISOString(),
  };
}

/**
 * Run ids found as folders of the output root (spec §2.3 `<output-root>/<run_id>/`). Names that
 * are not run ids (scratch folders, dot files) and links are left out.
 */
export async function listRunFolders(outputRoot: string): Promise<string[]> {
  let entries: import("node:fs").Dirent[];
  try {
    entries = await readdir(outputRoot, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.filter((entry) => entry.isDirectory() && isSafeId(entry.name)).map((e) => e.name);
}

/** Run ids that have a status record (`<output-root>/.run-status/<run_id>.json`). */
export async function listRunStatusIds(outputRoot: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(join(outputRoot, RUN_STATUS_DIR));
  } catch {
    return [];
  }
  return names
    .filter((name) => name.endsWith(".json"))
    .map((name) => name.slice(0, -".json".length))
    .filter((id) => isSafeId(id));
}

/**
 * The highlights of results/summary.json, or null when it is absent, too large, not JSON or not
 * a finished run's summary. The seal state is not among them: the summary never says it (the
 * status record does, issue 29 item 2).
 */
export async function readRunHighlights(run: RunFolder): Promise<RunHighlights | null> {
  const summary = await run.summary().catch(() => null);
  if (summary === null || summary.status !== "completed") return null;
  return {
    categoryId: summary.category_id,
    claimStrength: summary.claim_strength,
    coverageRatio: summary.coverage_ratio,
    compoundsTotal: summary.compounds.total,
    compoundsParsed: summary.compounds.parsed,
    missingProof: summary.missing_proof,
    generatedAt: summary.generated_at,
  };
}

/** The seal id in seal/seal.json and which seal files exist, as the run detail shows them. */
export async function readRunSeal(
  run: RunFolder,
): Promise<Pick<RunFolderSeal, "sealId"> & { files: string[] }> {
  const seal = await run.seal();
  return { sealId: seal.sealId, files: [...seal.files] };
}
