import { createHash } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describeToolFailure, runTool, type ToolInvocation } from "./run-tool.ts";
import { StructureError } from "./structure-error.ts";
import { STRUCTURE_PYTHON } from "./tool-versions.ts";

const ADAPTER = fileURLToPath(new URL("./python/prepare_receptor.py", import.meta.url));
const PREPARATION_TIMEOUT_MS = 15 * 60_000;

/** The pH hydrogens are placed at (issue 25 item 2). */
export const RECEPTOR_PH = 7.4;

export interface ReceptorPreparationOptions {
  /** Heterogen residue names kept even though they are waters or ions (e.g. a catalytic "ZN"). */
  readonly keepHeterogens?: readonly string[];
  /** Heterogen residue names removed although not waters or ions (the reference ligand, e.g. "TQ3"). */
  readonly removeHeterogens?: readonly string[];
  readonly ph?: number;
}

/** What PDBFixer did, as its adapter reports it. */
export interface ReceptorPreparationReport {
  readonly removed_heterogens: Readonly<Record<string, number>>;
  readonly replaced_nonstandard: readonly string[];
  readonly added_heavy_atoms: number;
  readonly added_hydrogens: number;
  readonly atoms: number;
  readonly residues: number;
  readonly protein_chains: number;
  /**
   * The OpenMM platform PDBFixer's and Modeller's minimisations ran on: always "Reference"
   * (single-threaded, the same arithmetic on every machine), so a receptor is prepared byte for byte
   * the same way each run (issue 43).
   */
  readonly openmm_platform: string;
}

export interface PreparedReceptor {
  /** sha256 of the structure file's bytes: the cache key, with the options' own hash. */
  readonly structureSha256: string;
  /** The repaired, protonated structure (PDB). */
  readonly pdbPath: string;
  /** The rigid receptor for Vina. */
  readonly pdbqtPath: string;
  readonly report: ReceptorPreparationReport;
  /** The receptor's partial charges in the PDBQT (only AD4 scoring reads them). */
  readonly charges: "gasteiger" | "none: Open Babel's Gasteiger charges failed on this receptor";
  /** Every program call with its exact arguments, in order (for `repro_pack/environment/`). */
  readonly invocations: readonly ToolInvocation[];
  /** True when this call found the receptor already prepared in the cache. */
  readonly fromCache: boolean;
}

/** Role interface (ARCHITECTURE.md): turns a receptor structure into a docking-ready PDBQT. */
export interface ReceptorPreparer {
  prepare(structurePath: string, options?: ReceptorPreparationOptions): Promise<PreparedReceptor>;
}

export interface ReceptorPreparerOptions {
  /** Where prepared receptors are kept, one folder per structure hash and options. */
  readonly cacheDir: string;
}

/**
 * The PDBFixer + Open Babel preparer. One structure is prepared once per cache dir (give the run's
 * work dir): the key is the file's sha256 plus the options, and concurrent calls share one job.
 * Waters and single-atom ions go unless kept; the named reference ligand goes; cofactors stay
 * (see python/prepare_receptor.py for why). Throws `StructureError` when a tool fails: a receptor
 * that cannot be prepared means no compound can be docked against it.
 */
export function createReceptorPreparer(settings: ReceptorPreparerOptions): ReceptorPreparer {
  const jobs = new Map<string, Promise<PreparedReceptor>>();
  return {
    async prepare(structurePath, options = {}) {
      const bytes = await readFile(structurePath);
      const structureSha256 = createHash("sha256").update(bytes).digest("hex");
      const ph = options.ph ?? RECEPTOR_PH;
      const keep = [...(options.keepHeterogens ?? [])].sort();
      const remove = [...(options.removeHeterogens ?? [])].sort();
      const optionsHash = createHash("sha256")
        .update(JSON.stringify({ ph, keep, remove }))
        .digest("hex")
        .slice(0, 12);
      const key = `${structureSha256}-${optionsHash}`;
      const running = jobs.get(key);
      if (running) return { ...(await running), fromCache: true };
      const job = prepareInto(join(settings.cacheDir, key), structurePath, structureSha256, ph, keep, remove);
      jobs.set(key, job);
      job.catch(() => jobs.delete(key));
      return job;
    },
  };
}

/** One-off preparation with a cache dir of the caller's choosing (see `createReceptorPreparer`). */
export function prepareReceptor(
  structurePath: string,
  cacheDir: string,
  options: ReceptorPreparationOptions = {},
): Promise<PreparedReceptor> {
  return createReceptorPreparer({ cacheDir }).prepare(structurePath, options);
}

async function prepareInto(
  dir: string,
  structurePath: string,
  structureSha256: string,
  ph: number,
  keep: readonly string[],
  remove: readonly string[],
): Promise<PreparedReceptor> {
  const recordPath = join(dir, "preparation.json");
  const pdbPath = join(dir, "receptor.pdb");
  const pdbqtPath = join(dir, "receptor.pdbqt");
  try {
    const record = JSON.parse(await readFile(recordPath, "utf8")) as Omit<PreparedReceptor, "fromCache">;
    return { ...record, pdbPath, pdbqtPath, fromCache: true };
  } catch {
    // Not prepared yet (or an interrupted earlier attempt): prepare afresh below.
  }
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  // PDBFixer reads the format from the file name's extension, so the source keeps its own.
  const extension = /\.(cif|mmcif)$/i.test(structurePath) ? ".cif" : ".pdb";
  const sourceCopy = join(dir, `source${extension}`);
  await writeFile(sourceCopy, await readFile(structurePath));
  const fixerArgs = [ADAPTER, sourceCopy, pdbPath, String(ph), JSON.stringify(keep), JSON.stringify(remove)];
  const fixer = await runTool(STRUCTURE_PYTHON, fixerArgs, { timeoutMs: PREPARATION_TIMEOUT_MS });
  const fixerFailure = describeToolFailure("PDBFixer", fixer, PREPARATION_TIMEOUT_MS);
  if (fixerFailure)
    throw new StructureError("STRUCTURE_RECEPTOR_PREPARATION_FAILED", `${structurePath}: ${fixerFailure}`);
  const { versions: _versions, ...report } = JSON.parse(fixer.stdout) as ReceptorPreparationReport & {
    versions: unknown;
  };
  // -xr: a rigid receptor (no torsion tree); Gasteiger charges named explicitly, because from a PDB
  // Open Babel otherwise writes every charge as 0. Vina and Vinardo ignore charges (only AD4 scoring
  // reads them), so when Gasteiger fails (seen on a haem iron: "0 molecules converted") the receptor
  // is written without charges and the record says so. --title: Open Babel otherwise writes the input's
  // path into every "REMARK  Name" line, and the PDBQT's bytes would depend on the work folder.
  const partial = `${pdbqtPath}.partial`;
  const title = ["--title", "receptor"];
  let obabelArgs = [
    "-ipdb",
    pdbPath,
    "-xr",
    "--partialcharge",
    "gasteiger",
    ...title,
    "-opdbqt",
    "-O",
    partial,
  ];
  let charges: PreparedReceptor["charges"] = "gasteiger";
  let obabel = await runTool("obabel", obabelArgs, { timeoutMs: PREPARATION_TIMEOUT_MS });
  if (obabel.status === 0 && !/1 molecule converted/.test(obabel.stderr)) {
    obabelArgs = ["-ipdb", pdbPath, "-xr", ...title, "-opdbqt", "-O", partial];
    charges = "none: Open Babel's Gasteiger charges failed on this receptor";
    obabel = await runTool("obabel", obabelArgs, { timeoutMs: PREPARATION_TIMEOUT_MS });
  }
  const obabelFailure =
    describeToolFailure("obabel", obabel, PREPARATION_TIMEOUT_MS) ??
    (/1 molecule converted/.test(obabel.stderr) ? null : `obabel converted nothing: ${obabel.stderr.trim()}`);
  if (obabelFailure)
    throw new StructureError("STRUCTURE_RECEPTOR_PREPARATION_FAILED", `${structurePath}: ${obabelFailure}`);
  await rename(partial, pdbqtPath);
  const record: Omit<PreparedReceptor, "fromCache"> = {
    structureSha256,
    pdbPath,
    pdbqtPath,
    report,
    charges,
    invocations: [
      { tool: "pdbfixer", argv: [STRUCTURE_PYTHON, ...fixerArgs] },
      { tool: "obabel", argv: ["obabel", ...obabelArgs.map((arg) => (arg === partial ? pdbqtPath : arg))] },
    ],
  };
  // Written last: its presence means the folder is complete.
  await writeFile(recordPath, `${JSON.stringify(record, null, 2)}\n`);
  return { ...record, fromCache: false };
}
