import { copyFile, mkdir, open, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, dirname, extname, join, resolve } from "node:path";
import type { AssayTable } from "@svc/runner";
import { findColumn, normaliseColumnName, PORTFOLIO_COLUMNS } from "@svc/runner/column-names";
import {
  formatBytes,
  PORTFOLIO_LIMIT_REASON,
  PORTFOLIO_MAX_BYTES,
  PORTFOLIO_MAX_ROWS,
  sniffInputFile,
} from "@svc/runner/input-file-limits";
import {
  DEFAULT_PROFILE,
  isTargetProductProfile,
  PROFILE_DESCRIPTIONS,
  TARGET_PRODUCT_PROFILES,
  type TargetProductProfile,
} from "@svc/science/decision";
import { CliError } from "../cli-error.ts";
import { assertUniqueIds, convertTable, readTableHead, rowsToCsv } from "./portfolio-conversion.ts";
import { type PortfolioRow, parseSmiText, splitCsvHeader, splitSdText } from "./portfolio-text.ts";
import { SCREEN_REFUSE_SHARE, type SmilesScreen } from "./smiles-screen.ts";

/** Options of {@link initProject}. */
export interface InitProjectOptions {
  portfolio: string;
  targets?: string | undefined;
  name?: string | undefined;
  /** Project folder; default `./<name>`. */
  out?: string | undefined;
  primary?: string | undefined;
  indication?: string | undefined;
  force?: boolean | undefined;
  /** The target product profile written into sources.json (issue 36 item 2); none: the runner's default. */
  profile?: string | undefined;
  /** An assay table to copy into 01_sources/ and name as `assays_csv` (issue 37 item 6). */
  assays?: string | undefined;
  /** Receptor structures to copy into 01_sources/ and list under `pdbs` (issue 25 item 1). */
  structures?: readonly StructureOption[] | undefined;
}

/** One `--structure FILE [--ligand RES:CHAIN:NUM|FILE.sdf] [--box cx,cy,cz,sx,sy,sz]`. */
export interface StructureOption {
  file: string;
  ligand?: string | undefined;
  box?: string | undefined;
}

/** What init wrote and what it inferred, for the user to check. */
export interface InitProjectResult {
  projectDir: string;
  projectId: string;
  sourcesJson: Record<string, unknown>;
  inferred: string[];
  /** Files copied in beside the portfolio (structures, reference ligands), by their names in 01_sources/. */
  copied: string[];
}

/** Structure and target files: the portfolio's own limit (the runner's, input-file-limits.ts). */
const MAX_INPUT_BYTES = PORTFOLIO_MAX_BYTES;

/** The column holding RDKit's reason for an SD record init could not convert (runner: unparseable row). */
export const UNPARSEABLE_REASON_COLUMN = "unparseable_reason";

function projectIdFrom(text: string): string {
  const id = text
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, "")
    .slice(0, 63);
  return id === "" ? "project" : id;
}

/**
 * Reads an input file as text after the checks that need no more than its size and first bytes
 * (issue 37 item 7): larger than the runner reads, empty, or binary (never echoed: its size only).
 */
async function readInput(path: string, what: string): Promise<string> {
  await checkInput(path, what);
  return readFile(path, "utf8");
}

/** readInput's checks, from the size and the first bytes. */
async function checkInput(path: string, what: string): Promise<void> {
  let size: number;
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new CliError("INPUT_INVALID", `${path} is not a file: give the ${what} file`);
    size = info.size;
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError("FILE_NOT_FOUND", `${path}: no such file; give the ${what} file`);
  }
  if (size > MAX_INPUT_BYTES)
    throw new CliError(
      "INPUT_INVALID",
      `${path}: ${formatBytes(size)}, larger than ${formatBytes(MAX_INPUT_BYTES)}: ${PORTFOLIO_LIMIT_REASON}; nothing was written or charged`,
    );
  const sniffed = await sniffInputFile(path);
  if (sniffed.kind === "empty")
    throw new CliError(
      "INPUT_INVALID",
      `${path}: the file is empty (${formatBytes(sniffed.size)}); give the ${what} file`,
    );
  if (sniffed.kind === "binary")
    throw new CliError(
      "INPUT_INVALID",
      `${path}: a binary file (${formatBytes(sniffed.size)}, ${sniffed.why}), not a ${what} as text; nothing of it is shown. Save it as CSV, tab-separated text, SMILES or SD file`,
    );
}

/** Bytes of a table read for its header and first rows: 1,000 rows of 1 KiB. */
const HEAD_BYTES = 1024 * 1024;

/**
 * The first {@link HEAD_BYTES} of an input file, cut at its last full line, after readInput's
 * checks of size and kind.
 */
async function readHead(path: string, what: string): Promise<string> {
  await checkInput(path, what);
  const handle = await open(path, "r");
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
    const text = buffer.subarray(0, bytesRead).toString("utf8");
    const end = text.lastIndexOf("\n");
    return bytesRead < HEAD_BYTES || end === -1 ? text : text.slice(0, end + 1);
  } finally {
    await handle.close();
  }
}

/** Refuses a table whose structure column is mostly not SMILES, before the runner's RDKit pass. */
function assertLooksLikeSmiles(screen: SmilesScreen, source: string): void {
  if (screen.looked === 0 || screen.failed / screen.looked < SCREEN_REFUSE_SHARE) return;
  const shown = screen.examples.map(({ line, text }) => `line ${line}: ${JSON.stringify(text)}`).join("; ");
  throw new CliError(
    "INPUT_INVALID",
    `${source}: ${screen.failed} of the first ${screen.looked} rows have no SMILES in the structure column (${shown}); this is not a portfolio, nothing was written or charged`,
  );
}

async function convertSdf(text: string, source: string, inferred: string[]): Promise<string> {
  const { records, malformed } = splitSdText(text);
  if (records.length === 0)
    throw new CliError("INPUT_INVALID", `${source}: no SD record (molblock ending with M  END) found`);
  // SMILES from each molblock by RDKit (the WebAssembly build the audit job itself uses).
  const { loadRDKit, parseSmiles } = await import("@svc/science/modules");
  const rdkit = await loadRDKit();
  const rows: PortfolioRow[] = [];
  const data: Record<string, string>[] = [];
  const unreadable: number[] = [];
  const dataNames = new Set<string>();
  for (const [index, record] of records.entries()) {
    const keys = Object.keys(record.data);
    const idKey = keys[findColumn(keys, PORTFOLIO_COLUMNS.id)];
    const id = (idKey ? record.data[idKey] : undefined) || record.title || `row_${index + 1}`;
    const rest: Record<string, string> = Object.fromEntries(
      Object.entries(record.data).filter(([key]) => key !== idKey),
    );
    // RDKit's molblock reader, with RDKit's own reason when it refuses (parseSmiles reads any
    // input get_mol takes and captures its error log).
    const parsed = parseSmiles(rdkit, record.molblock);
    if ("error" in parsed) {
      // Carried, never dropped (issue 27 item 3): an empty SMILES is the runner's unparseable
      // row, and the reason goes with it so the sealed run shows why.
      unreadable.push(index + 1);
      rows.push({ id, name: record.title, smiles: "" });
      rest[UNPARSEABLE_REASON_COLUMN] = parsed.error;
    } else {
      try {
        rows.push({ id, name: record.title, smiles: parsed.mol.get_smiles() });
      } finally {
        parsed.mol.delete();
      }
    }
    for (const key of Object.keys(rest)) dataNames.add(key);
    data.push(rest);
  }
  if (unreadable.length === records.length)
    throw new CliError(
      "INPUT_INVALID",
      `${source}: RDKit could not read any of the ${records.length} SD record(s)`,
    );
  assertUniqueIds(rows, source);
  inferred.push(`format: SD file, ${records.length} record(s); SMILES from each molblock by RDKit`);
  inferred.push(
    "id: a data item named as an id column (candidate_id, compound_id, ID, Molecule ChEMBL ID …), else the title line; name: the title line",
  );
  if (dataNames.size > 0) inferred.push(`carried forward as metadata: ${[...dataNames].join(", ")}`);
  if (malformed > 0)
    inferred.push(`NOT included: ${malformed} chunk(s) without a molblock (no "M  END" before "$$$$")`);
  if (unreadable.length > 0)
    inferred.push(
      `carried as unparseable rows (empty smiles, RDKit's reason in ${UNPARSEABLE_REASON_COLUMN}): ${unreadable.length} record(s) RDKit could not read (record ${unreadable.slice(0, 5).join(", ")}${unreadable.length > 5 ? ", …" : ""})`,
    );
  // A data item named as the written columns would repeat them in the header: left out.
  const extra = [...dataNames].filter(
    (name) => !["candidate_id", "name", "smiles"].includes(normaliseColumnName(name)),
  );
  return rowsToCsv(rows, extra, data);
}

/**
 * `svc project init`: writes `<project>/01_sources/` with `portfolio_selected.csv`, optional
 * `targets.csv` and `sources.json` (domain notes, "Input contract of the audit job"), from a CSV
 * table, a SMILES file or an SD file. The folder appears only once complete.
 */
export async function initProject(options: InitProjectOptions): Promise<InitProjectResult> {
  const portfolio = resolve(options.portfolio);
  const extension = extname(portfolio).toLowerCase();
  const projectId = projectIdFrom(options.name ?? basename(portfolio, extname(portfolio)));
  const projectDir = resolve(options.out ?? projectId);
  const sourcesDir = join(projectDir, "01_sources");
  const exists = await stat(sourcesDir).then(
    () => true,
    () => false,
  );
  if (exists && !options.force)
    throw new CliError(
      "INPUT_INVALID",
      `${sourcesDir} exists: pass --force to replace it, or --out <other folder>`,
    );
  // Checked before anything is read or written (issue 36 item 2): the runner refuses it with the same words.
  if (options.profile !== undefined && !isTargetProductProfile(options.profile))
    throw new CliError(
      "PROFILE_INVALID",
      `--profile must be one of ${TARGET_PRODUCT_PROFILES.join(", ")} (got ${JSON.stringify(options.profile)})`,
    );
  const table = extension === ".csv" || extension === ".tsv" || extension === ".txt";
  // A table's header and first rows are looked at before the file is read whole.
  if (table)
    assertLooksLikeSmiles(readTableHead(await readHead(portfolio, "portfolio"), portfolio).screen, portfolio);
  const text = table ? "" : await readInput(portfolio, "portfolio");
  const inferred: string[] = [
    `project id: ${projectId}${options.name ? "" : " (from the file name; --name to change)"}`,
  ];
  let csv: string;
  if (extension === ".smi" || extension === ".smiles") {
    const rows = parseSmiText(text);
    if (rows.length === 0) throw new CliError("INPUT_INVALID", `${portfolio}: no SMILES line found`);
    if (rows.length > PORTFOLIO_MAX_ROWS)
      throw new CliError(
        "INPUT_INVALID",
        `${portfolio}: ${rows.length.toLocaleString("en")} SMILES lines: ${PORTFOLIO_LIMIT_REASON}; nothing was written or charged`,
      );
    assertUniqueIds(rows, portfolio);
    inferred.push(`format: SMILES file, ${rows.length} compound(s); id = second token, name = the rest`);
    csv = rowsToCsv(rows);
  } else if (extension === ".sdf" || extension === ".sd") csv = await convertSdf(text, portfolio, inferred);
  else if (table) {
    csv = convertTable(await readInput(portfolio, "portfolio"), portfolio, inferred, (rows) => {
      if (rows > PORTFOLIO_MAX_ROWS)
        throw new CliError(
          "INPUT_INVALID",
          `${portfolio}: ${rows.toLocaleString("en")} data lines: ${PORTFOLIO_LIMIT_REASON}; nothing was written or charged`,
        );
    }).csv;
  } else throw new CliError("INPUT_INVALID", `${portfolio}: give a .csv, .tsv, .txt, .smi or .sdf portfolio`);

  const sourcesJson: Record<string, unknown> = { portfolio_selected_csv: "portfolio_selected.csv" };
  let targets: string | null = null;
  if (options.targets) {
    targets = await readInput(resolve(options.targets), "targets");
    const header = splitCsvHeader((targets.split(/\r?\n/)[0] ?? "").trim());
    if (findColumn(header, ["target_symbol", "uniprot_id"]) === -1)
      throw new CliError(
        "INPUT_INVALID",
        `${options.targets}: no target_symbol or uniprot_id column (columns: ${header.join(", ")})`,
      );
    sourcesJson.targets_csv = "targets.csv";
    inferred.push(
      `targets: ${
        targets
          .split(/\r?\n/)
          .slice(1)
          .filter((line) => line.trim() !== "").length
      } row(s)`,
    );
  }
  const copies = new Map<string, string>();
  if (options.structures && options.structures.length > 0) {
    sourcesJson.pdbs = await structureEntries(options.structures, copies, inferred);
  }
  const assays = options.assays === undefined ? null : await stageAssays(options.assays, copies, inferred);
  if (assays !== null) sourcesJson.assays_csv = assays.name;
  if (options.primary) sourcesJson.primary_candidate_id = options.primary;
  if (options.indication) sourcesJson.indication = options.indication;
  if (options.profile !== undefined) {
    sourcesJson.profile = options.profile;
    inferred.push(
      `profile: ${options.profile} (${PROFILE_DESCRIPTIONS[options.profile as TargetProductProfile]})`,
    );
  } else inferred.push(`profile: ${DEFAULT_PROFILE} (the default; --profile oral_cns or non_oral to change)`);

  // Written beside the target and renamed into place: a failure leaves no half-made project.
  const staging = join(dirname(projectDir), `.${basename(projectDir)}.svc-init-${process.pid}`);
  await rm(staging, { recursive: true, force: true });
  try {
    await mkdir(join(staging, "01_sources"), { recursive: true });
    await writeFile(join(staging, "01_sources", "portfolio_selected.csv"), csv);
    await checkAsTheRunner(join(staging, "01_sources", "portfolio_selected.csv"), portfolio, options, assays);
    if (targets !== null) await writeFile(join(staging, "01_sources", "targets.csv"), targets);
    for (const [name, from] of copies) await copyFile(from, join(staging, "01_sources", name));
    await writeFile(join(staging, "01_sources", "sources.json"), `${JSON.stringify(sourcesJson, null, 2)}\n`);
    await mkdir(projectDir, { recursive: true });
    await rm(sourcesDir, { recursive: true, force: true });
    await rename(join(staging, "01_sources"), sourcesDir);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return { projectDir, projectId, sourcesJson, inferred, copied: [...copies.keys()] };
}

/**
 * The portfolio as written, through the runner's own first pass (ids, field counts, the primary
 * candidate: every problem at once), and the assay table's candidate ids against it; no RDKit,
 * nothing charged. A refusal names the source file; the lines are those of portfolio_selected.csv.
 */
async function checkAsTheRunner(
  written: string,
  source: string,
  options: InitProjectOptions,
  assays: { name: string; table: AssayTable } | null,
): Promise<void> {
  const { RunnerError, assertAssayCandidatesKnown, validatePortfolio } = await runner();
  const ids = new Set<string>();
  try {
    await validatePortfolio(
      written,
      options.primary ?? null,
      assays === null ? undefined : (id) => ids.add(id),
    );
    if (assays !== null)
      assertAssayCandidatesKnown(assays.table, options.assays ?? assays.name, (id) => ids.has(id));
  } catch (error) {
    if (error instanceof RunnerError)
      throw new CliError("INPUT_INVALID", `${source}: ${error.message}; nothing was written or charged`);
    throw error;
  }
}

/**
 * `--assays FILE` (issue 37 item 6): read and checked as the runner reads it (assays-csv.ts: every
 * problem of the file at once), then copied into 01_sources/ under its own name for `assays_csv`.
 */
async function stageAssays(
  path: string,
  copies: Map<string, string>,
  inferred: string[],
): Promise<{ name: string; table: AssayTable }> {
  const from = resolve(path);
  await checkInput(from, "assay table");
  const name = basename(from);
  if (RESERVED_NAMES.includes(name))
    throw new CliError("INPUT_INVALID", `${path}: rename it, ${name} is a name the project uses itself`);
  const earlier = copies.get(name);
  if (earlier !== undefined && earlier !== from)
    throw new CliError("INPUT_INVALID", `${path}: another file named ${name} is already staged (${earlier})`);
  const { RunnerError, readAssayTable } = await runner();
  let table: AssayTable;
  try {
    table = await readAssayTable(from, path);
  } catch (error) {
    if (error instanceof RunnerError)
      throw new CliError("INPUT_INVALID", `${error.message}; nothing was written or charged`);
    throw error;
  }
  copies.set(name, from);
  const { columns } = table;
  const value = columns.p ?? columns.value;
  const unit =
    columns.p !== null
      ? ""
      : columns.unit !== null
        ? `, unit ${JSON.stringify(columns.unit)}`
        : " (unit in its name)";
  inferred.push(
    `assays: ${name} as assays_csv, ${table.rowCount} row(s) with a value for ${table.values.size} compound(s) in ${table.assayIds.length} assay(s) (${table.assayIds.slice(0, 5).join(", ")}${table.assayIds.length > 5 ? ", …" : ""})`,
  );
  inferred.push(
    `assay columns: id ${JSON.stringify(columns.id)}, ${columns.p !== null ? "p value" : "value"} ${JSON.stringify(value)}${unit}${columns.relation !== null ? `, relation ${JSON.stringify(columns.relation)}` : ""}${columns.assay !== null ? `, assay ${JSON.stringify(columns.assay)}` : ", one assay (no assay column)"}`,
  );
  if (table.censoredRows > 0)
    inferred.push(
      `censored values: ${table.censoredRows} row(s) (>, <, ≥, ≤) kept with their qualifier, never averaged with exact ones`,
    );
  if (table.missingRows > 0)
    inferred.push(`missing values: ${table.missingRows} row(s) blank or not determined (n.d., NA …)`);
  return { name, table };
}

// The runner's readers, loaded only when init runs: `svc --help` loads no @svc/core
// (packages/cli/test/help-loads-no-command.e2e.test.ts).
const runner = () => import("@svc/runner");

/** Names 01_sources/ gives its own files. */
const RESERVED_NAMES = ["sources.json", "portfolio_selected.csv", "targets.csv"];

/**
 * The `pdbs` entries of `--structure` options (packages/runner/README.md, "Structures"): each file
 * (and a ligand SD file) is copied into 01_sources/ under its own name; a ligand residue must read
 * `RES:CHAIN:NUM` and a box six numbers. The runner checks the rest (parsing, protein, pocket) with
 * `svc project check` and before any charge.
 */
async function structureEntries(
  structures: readonly StructureOption[],
  copies: Map<string, string>,
  inferred: string[],
): Promise<unknown[]> {
  const copy = async (path: string, what: string): Promise<string> => {
    const from = resolve(path);
    await checkInput(from, what);
    const name = basename(from);
    if (RESERVED_NAMES.includes(name))
      throw new CliError("INPUT_INVALID", `${path}: rename it, ${name} is a name the project uses itself`);
    const earlier = copies.get(name);
    if (earlier !== undefined && earlier !== from)
      throw new CliError(
        "INPUT_INVALID",
        `${path}: another file named ${name} is already staged (${earlier})`,
      );
    copies.set(name, from);
    return name;
  };
  const entries: unknown[] = [];
  for (const option of structures) {
    const file = await copy(option.file, "structure");
    let ligand: string | undefined;
    if (option.ligand !== undefined) {
      if (/\.(sdf|sd|mol)$/i.test(option.ligand)) ligand = await copy(option.ligand, "reference ligand");
      else if (/^[A-Za-z0-9]{1,3}:[A-Za-z0-9]?:-?\d+$/.test(option.ligand)) ligand = option.ligand;
      else
        throw new CliError(
          "INPUT_INVALID",
          `--ligand ${option.ligand}: give RES:CHAIN:NUM (a residue of ${file}, e.g. STI:A:201) or an .sdf file`,
        );
    }
    let box: { center: number[]; size: number[] } | undefined;
    if (option.box !== undefined) {
      const numbers = option.box.split(",").map((part) => Number(part.trim()));
      if (numbers.length !== 6 || numbers.some((n) => !Number.isFinite(n)))
        throw new CliError("INPUT_INVALID", `--box ${option.box}: give six numbers cx,cy,cz,sx,sy,sz in Å`);
      box = { center: numbers.slice(0, 3), size: numbers.slice(3) };
    }
    if (ligand !== undefined && box !== undefined)
      throw new CliError("INPUT_INVALID", `--structure ${option.file}: give --ligand or --box, not both`);
    entries.push(
      ligand === undefined && box === undefined
        ? file
        : { file, ...(ligand ? { ligand } : {}), ...(box ? { box } : {}) },
    );
    inferred.push(
      `structure: ${file}${ligand ? `, pocket by reference ligand ${ligand}` : box ? `, pocket by box ${option.box}` : ", no pocket named"}`,
    );
  }
  return entries;
}
