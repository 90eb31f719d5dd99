import { readdir, readFile, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { z } from "zod";
import {
  type CrypticPocketsResultFile,
  crypticPocketsResultSchema,
} from "../contracts/cryptic-pockets-result.ts";
import { type DockingResultFile, dockingResultSchema } from "../contracts/docking-result.ts";
import { parseRunStatus, type RunStatus } from "../contracts/run-status.ts";
import { CoreError } from "../core-error.ts";
import { runStatusPath } from "../run-layout.ts";
import {
  type ExpectedHashes,
  expectedHashesSchema,
  type InputHashes,
  inputHashesSchema,
  type ModulePlanFile,
  type ModuleResult,
  modulePlanFileSchema,
  moduleResultSchema,
  type RunManifest,
  type RunSummaryFile,
  runManifestSchema,
  runSummaryFileSchema,
} from "./run-file-schemas.ts";
import { RUN_FILES, type RunFileKey, runPath, SEAL_DIR, SEAL_FILES } from "./run-files.ts";

/**
 * The seal files a folder must hold to be sealed: the signed payload, its signature and the
 * picture `svc seal verify` reads (issue 38 item 5).
 */
export const SEALED_FILES = [SEAL_FILES.json, SEAL_FILES.signature, SEAL_FILES.svg] as const;

/** What `seal/` holds, as a reader of the folder needs it (preflight's run detail, the CLI). */
export interface RunFolderSeal {
  /** Regular files of `seal/`, as `seal/<name>`, sorted; empty without a `seal/` folder. */
  readonly files: readonly string[];
  /** The {@link SEALED_FILES} the folder lacks (`seal/<name>`); empty when all are there. */
  readonly missing: readonly string[];
  /** `seal/seal.json`'s `seal_id` when every sealed file is there and it names one; else null. */
  readonly sealId: string | null;
  /** `seal/preseal.json` is there (domain notes "Pre-seal"). */
  readonly presealed: boolean;
}

/**
 * One run folder, read through the contract (issue 41 item 1): each accessor reads its file when
 * first called (once; a docking result can be tens of MB and most readers need one file), checks
 * it against its schema and returns it typed. Absent: null. Present but too large, not JSON or not
 * the shape: a CoreError `RUN_FILE_INVALID` naming the file, never a cast that lies later.
 */
export interface RunFolder {
  /** The folder, `<output-root>/<run_id>`. */
  readonly dir: string;
  /** The run id: the folder's name unless given (`svc-runner seal` takes it from the pre-seal). */
  readonly runId: string;
  /** The absolute path of a RUN_FILES entry, its `<name>` parts filled. */
  path(key: RunFileKey, parts?: Readonly<Record<string, string | number>>): string;
  /** The run's status record, beside the folder (docs/contracts/run-status.md); null when none is readable. */
  status(): Promise<RunStatus | null>;
  summary(): Promise<RunSummaryFile | null>;
  modulePlan(): Promise<ModulePlanFile | null>;
  manifest(): Promise<RunManifest | null>;
  inputHashes(): Promise<InputHashes | null>;
  expectedHashes(): Promise<ExpectedHashes | null>;
  dockingResult(): Promise<DockingResultFile | null>;
  crypticPocketsResult(): Promise<CrypticPocketsResultFile | null>;
  /** A structure module's `results/<module>.json`. */
  moduleResult(moduleId: string): Promise<ModuleResult | null>;
  seal(): Promise<RunFolderSeal>;
  /** True when the folder holds a regular file at the RUN_FILES entry. */
  hasFile(key: RunFileKey, parts?: Readonly<Record<string, string | number>>): Promise<boolean>;
}

export interface ReadRunFolderOptions {
  /** The run's id when the folder may not be named after it (a copied or renamed folder). */
  readonly runId?: string;
  /**
   * The largest JSON file an accessor reads (default 256 MiB). A service reading folders it did
   * not write (preflight) sets less, so a hostile file costs a refusal, not its memory.
   */
  readonly maxJsonBytes?: number;
}

/** A status record is a few hundred bytes; seal.json a few KB. Larger ones are not read. */
const MAX_STATUS_BYTES = 64 * 1024;
const MAX_SEAL_JSON_BYTES = 1024 * 1024;
const DEFAULT_MAX_JSON_BYTES = 256 * 1024 * 1024;

export function readRunFolder(runDir: string, options: ReadRunFolderOptions = {}): RunFolder {
  const maxBytes = options.maxJsonBytes ?? DEFAULT_MAX_JSON_BYTES;
  const runId = options.runId ?? basename(runDir);
  const cache = new Map<string, Promise<unknown>>();
  const once = <T>(key: string, read: () => Promise<T>): Promise<T> => {
    let known = cache.get(key) as Promise<T> | undefined;
    if (known === undefined) {
      known = read();
      cache.set(key, known);
    }
    return known;
  };
  const pathOf = (key: RunFileKey, parts?: Readonly<Record<string, string | number>>) =>
    join(runDir, (runPath as (k: RunFileKey, p?: object) => string)(key, parts ?? {}));
  const json = <S extends z.ZodType>(relative: string, schema: S): Promise<z.infer<S> | null> =>
    once(relative, () => readJsonFile(runDir, relative, schema, maxBytes));
  return {
    dir: runDir,
    runId,
    path: pathOf,
    status: () => once("status", () => readStatusRecord(runDir, runId)),
    summary: () => json(RUN_FILES.summary, runSummaryFileSchema),
    modulePlan: () => json(runPath("modulePlan", { run_id: runId }), modulePlanFileSchema),
    manifest: () => json(RUN_FILES.manifest, runManifestSchema),
    inputHashes: () => json(RUN_FILES.inputHashes, inputHashesSchema),
    expectedHashes: () => json(RUN_FILES.expectedHashes, expectedHashesSchema),
    dockingResult: () => json(RUN_FILES.dockingResult, dockingResultSchema),
    crypticPocketsResult: () => json(RUN_FILES.crypticPocketsResult, crypticPocketsResultSchema),
    moduleResult: (moduleId) => json(runPath("moduleResult", { module: moduleId }), moduleResultSchema),
    seal: () => once("seal", () => readSeal(runDir)),
    hasFile: async (key, parts) => isFile(pathOf(key, parts)),
  };
}

async function readJsonFile<S extends z.ZodType>(
  runDir: string,
  relative: string,
  schema: S,
  maxBytes: number,
): Promise<z.infer<S> | null> {
  const path = join(runDir, relative);
  let text: string;
  try {
    const info = await stat(path);
    if (!info.isFile()) throw invalid(relative, "not a regular file");
    if (info.size > maxBytes) throw invalid(relative, `${info.size} bytes, over the ${maxBytes} read`);
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw invalid(relative, `not JSON (${(error as Error).message})`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalid(relative, `${issue?.path.join(".") || "(root)"}: ${issue?.message ?? "not the shape"}`);
  }
  return parsed.data;
}

function invalid(relative: string, why: string): CoreError {
  return new CoreError("RUN_FILE_INVALID", `${relative}: ${why}`);
}

/** The record beside the folder, `<output-root>/.run-status/<run_id>.json`, naming this run. */
async function readStatusRecord(runDir: string, runId: string): Promise<RunStatus | null> {
  const path = runStatusPath(dirname(runDir), runId);
  try {
    if ((await stat(path)).size > MAX_STATUS_BYTES) return null;
    const record = parseRunStatus(JSON.parse(await readFile(path, "utf8")));
    return record !== null && record.run_id === runId ? record : null;
  } catch {
    return null;
  }
}

async function readSeal(runDir: string): Promise<RunFolderSeal> {
  let names: string[] = [];
  try {
    names = (await readdir(join(runDir, SEAL_DIR), { withFileTypes: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name);
  } catch {
    // no seal/ folder: nothing sealed, nothing pre-sealed
  }
  const has = new Set(names);
  const missing = SEALED_FILES.filter((name) => !has.has(name)).map((name) => `${SEAL_DIR}/${name}`);
  return {
    files: names.map((name) => `${SEAL_DIR}/${name}`).sort(),
    missing,
    sealId: missing.length === 0 ? await readSealId(join(runDir, RUN_FILES.sealJson)) : null,
    presealed: has.has(SEAL_FILES.preseal),
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

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
