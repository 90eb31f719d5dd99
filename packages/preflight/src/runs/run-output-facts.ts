import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import type { RunHighlights } from "@svc/core";
import {
  isSafeId,
  parseRunStatus,
  RUN_STATUS_DIR,
  type RunStatus,
  runStatusPath,
  SEAL_FILES,
} from "@svc/core";
import { z } from "zod";
import { type RunOutputFacts, SEALED_FILES } from "./run-state.ts";

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** seal/seal.json is a few KB; one far larger is not a seal this service reads for its id. */
const MAX_SEAL_JSON_BYTES = 1024 * 1024;

/**
 * Facts about a run folder the state derivation needs: stats, and seal/seal.json's seal id when
 * every seal file is there (a record saying sealed is held to it, issue 38 item 5).
 */
export async function readRunOutputFacts(runRoot: string): Promise<RunOutputFacts> {
  const info = await stat(runRoot);
  // birthtime is 0 on file systems without it; the folder's mtime is then the best we have.
  const created = info.birthtimeMs > 0 ? info.birthtime : info.mtime;
  const [sealFiles, preseal, summary] = await Promise.all([
    Promise.all(SEALED_FILES.map((name) => isFile(join(runRoot, "seal", name)))),
    isFile(join(runRoot, "seal", SEAL_FILES.preseal)),
    isFile(join(runRoot, "results", "summary.json")),
  ]);
  const missingSealFiles = SEALED_FILES.filter((_, index) => !sealFiles[index]).map((name) => `seal/${name}`);
  const sealed = missingSealFiles.length === 0;
  return {
    sealed,
    missingSealFiles,
    sealId: sealed ? await readSealId(join(runRoot, "seal", SEAL_FILES.json)) : null,
    preSealed: preseal,
    hasSummary: summary,
    createdAt: created.toISOString(),
  };
}

/** The seal_id of a seal.json, or null when it is too large, not a JSON object or names none. */
async function readSealId(path: string): Promise<string | null> {
  try {
    if ((await stat(path)).size > MAX_SEAL_JSON_BYTES) return null;
    const payload: unknown = JSON.parse(await readFile(path, "utf8"));
    if (typeof payload !== "object" || payload === null || Array.isArray(payload)) return null;
    const id = (payload as { seal_id?: unknown }).seal_id;
    return typeof id === "string" ? id : null;
  } catch {
    return null;
  }
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

const MAX_STATUS_BYTES = 64 * 1024;

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
 * The run's status record, `<output-root>/.run-status/<run_id>.json` (docs/contracts/run-status.md),
 * or null when there is none, or it is too large, not JSON or not a record this version knows (the
 * state is then derived, and labelled so).
 */
export async function readRunStatusRecord(outputRoot: string, runId: string): Promise<RunStatus | null> {
  const path = runStatusPath(outputRoot, runId);
  try {
    if ((await stat(path)).size > MAX_STATUS_BYTES) return null;
    const record = parseRunStatus(JSON.parse(await readFile(path, "utf8")));
    return record !== null && record.run_id === runId ? record : null;
  } catch {
    return null;
  }
}

const summaryShape = z.object({
  category_id: z.string().nullable().optional().catch(null),
  claim_strength: z.string().nullable().optional().catch(null),
  coverage_ratio: z.number().nullable().optional().catch(null),
  compounds: z
    .object({
      total: z.number().nullable().optional().catch(null),
      parsed: z.number().nullable().optional().catch(null),
    })
    .nullable()
    .optional()
    .catch(null),
  missing_proof: z.array(z.string()).optional().catch([]),
  seal_status: z.string().nullable().optional().catch(null),
  generated_at: z.string().nullable().optional().catch(null),
});

const MAX_SUMMARY_BYTES = 4 * 1024 * 1024;

/** The highlights of results/summary.json, or null when it is absent, too large or not JSON. */
export async function readRunHighlights(runRoot: string): Promise<RunHighlights | null> {
  const path = join(runRoot, "results", "summary.json");
  try {
    if ((await stat(path)).size > MAX_SUMMARY_BYTES) return null;
    const parsed = summaryShape.safeParse(JSON.parse(await readFile(path, "utf8")));
    if (!parsed.success) return null;
    const summary = parsed.data;
    return {
      categoryId: summary.category_id ?? null,
      claimStrength: summary.claim_strength ?? null,
      coverageRatio: summary.coverage_ratio ?? null,
      compoundsTotal: summary.compounds?.total ?? null,
      compoundsParsed: summary.compounds?.parsed ?? null,
      missingProof: summary.missing_proof ?? [],
      sealStatus: summary.seal_status ?? null,
      generatedAt: summary.generated_at ?? null,
    };
  } catch {
    return null;
  }
}

/** The seal id in seal/seal.json (or preseal.json), and which seal files exist. */
export async function readRunSeal(runRoot: string): Promise<{ sealId: string | null; files: string[] }> {
  let names: string[] = [];
  try {
    names = (await readdir(join(runRoot, "seal"), { withFileTypes: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => `seal/${entry.name}`)
      .sort();
  } catch {
    return { sealId: null, files: [] };
  }
  for (const name of [SEAL_FILES.json, SEAL_FILES.preseal]) {
    if (!names.includes(`seal/${name}`)) continue;
    try {
      const payload = JSON.parse(await readFile(join(runRoot, "seal", name), "utf8")) as {
        seal_id?: unknown;
      };
      if (typeof payload.seal_id === "string") return { sealId: payload.seal_id, files: names };
    } catch {
      // an unreadable seal file is reported by its absence of an id, the files are still listed
    }
  }
  return { sealId: null, files: names };
}
