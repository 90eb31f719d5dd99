import { basename, extname } from "node:path";
import { RunnerError, type RunnerErrorCode } from "../runner-error.ts";
import { assertTextInput } from "./assert-text-input.ts";
import { CsvSyntaxError, readCsvRecords } from "./csv.ts";
import { PORTFOLIO_LIMIT_REASON, PORTFOLIO_MAX_BYTES, PORTFOLIO_MAX_ROWS } from "./input-file-limits.ts";
import { csvIdColumn, readCsvPortfolio } from "./portfolio-csv.ts";
import type { SourceRecord } from "./portfolio-record.ts";
import { readSdfPortfolio } from "./portfolio-sdf.ts";
import { readSmiPortfolio } from "./portfolio-smi.ts";

/** Portfolio file formats, by extension: `.sdf`/`.sd` SD files, `.smi`/`.smiles`, else a table. */
export type PortfolioFormat = "table" | "smi" | "sdf";

/** What the first pass learned about the portfolio; found by {@link validatePortfolio}. */
export interface PortfolioLayout {
  readonly format: PortfolioFormat;
  readonly rowCount: number;
}

/** One portfolio row as the modules see it. */
export interface PortfolioRow {
  /** 1-based index among data rows. */
  readonly index: number;
  readonly line: number;
  readonly candidateId: string;
  readonly name: string | null;
  readonly smiles: string;
  /** An SDF record's molblock; the worker pool turns it into SMILES with RDKit. */
  readonly molblock?: string;
  /** Customer columns (or SD data items) carried forward unchanged. */
  readonly metadata: Readonly<Record<string, string>>;
  /** Measured activities from the staged assay table (assays-csv.ts); absent when none. */
  readonly activities?: Readonly<Record<string, number>>;
}

export function portfolioFormat(path: string): PortfolioFormat {
  const ext = extname(path).toLowerCase();
  if (ext === ".sdf" || ext === ".sd") return "sdf";
  if (ext === ".smi" || ext === ".smiles") return "smi";
  return "table";
}

function readRecords(path: string, shapeProblems?: string[]): AsyncGenerator<SourceRecord> {
  const file = `01_sources/${basename(path)}`;
  const format = portfolioFormat(path);
  if (format === "sdf") return readSdfPortfolio(path, file);
  if (format === "smi") return readSmiPortfolio(path);
  return readCsvPortfolio(path, file, shapeProblems);
}

/** Problems listed in one refusal; the count says how many more there were. */
const PROBLEMS_SHOWN = 50;

/**
 * First pass over the portfolio, before any entitlement call: an empty, binary or too large file
 * (input-file-limits.ts), format, columns, field counts, unique ids, and the primary candidate.
 * Every row problem of the file is refused at once (issue 37 item 6). Only the ids are kept in
 * memory (a Map), not the rows.
 */
export async function validatePortfolio(
  path: string,
  primaryCandidateId: string | null,
  onId?: (id: string) => void,
): Promise<PortfolioLayout> {
  const file = `01_sources/${basename(path)}`;
  const format = portfolioFormat(path);
  const fileCode: RunnerErrorCode = format === "sdf" ? "SDF_INVALID" : "CSV_INVALID";
  await assertTextInput(path, file, fileCode, { bytes: PORTFOLIO_MAX_BYTES, reason: PORTFOLIO_LIMIT_REASON });
  const idField = format === "table" ? ((await csvIdColumn(path)) ?? "candidate_id") : "id";
  const seen = new Map<string, number>();
  const problems: string[] = [];
  let firstCode: RunnerErrorCode | null = null;
  let rowCount = 0;
  for await (const record of readRecords(path, problems)) {
    // A row the reader skipped for its field count came before this one.
    if (firstCode === null && problems.length > 0) firstCode = "CSV_INVALID";
    rowCount++;
    if (rowCount > PORTFOLIO_MAX_ROWS)
      throw new RunnerError(
        fileCode,
        `${file}: more than ${PORTFOLIO_MAX_ROWS.toLocaleString("en")} rows: ${PORTFOLIO_LIMIT_REASON}`,
      );
    const id = candidateIdOf(record, rowCount);
    if (id === "") {
      firstCode ??= "CSV_INVALID";
      problems.push(`line ${record.line}, field ${idField}: empty candidate id`);
      continue;
    }
    const first = seen.get(id);
    if (first !== undefined) {
      firstCode ??= "DUPLICATE_CANDIDATE_ID";
      problems.push(
        `line ${record.line}, field ${idField}: duplicate candidate id "${id}" (first at line ${first})`,
      );
      continue;
    }
    seen.set(id, record.line);
    onId?.(id);
  }
  if (problems.length > 0) {
    const shown = problems.slice(0, PROBLEMS_SHOWN).join("; ");
    const more = problems.length > PROBLEMS_SHOWN ? `; and ${problems.length - PROBLEMS_SHOWN} more` : "";
    throw new RunnerError(
      firstCode ?? "CSV_INVALID",
      problems.length === 1 ? `${file} ${shown}` : `${file}: ${problems.length} problems: ${shown}${more}`,
    );
  }
  if (rowCount === 0) {
    throw new RunnerError(
      fileCode,
      `${file}: no ${format === "table" ? "data rows after the header" : "molecules"}`,
    );
  }
  if (primaryCandidateId !== null && !seen.has(primaryCandidateId)) {
    throw new RunnerError(
      "PRIMARY_CANDIDATE_NOT_FOUND",
      `01_sources/sources.json field primary_candidate_id: "${primaryCandidateId}" is not a candidate id of ${file}`,
    );
  }
  return { format, rowCount };
}

/**
 * Second pass: the rows, streamed, for validation and analysis. `activities` (the assay table's
 * join) gives each row with measurements its `activities`; they travel with the row through the
 * worker pool and the prepared-row cache.
 */
export async function* readPortfolioRows(
  path: string,
  activities?: ReadonlyMap<string, Readonly<Record<string, number>>>,
): AsyncGenerator<PortfolioRow> {
  let index = 0;
  for await (const record of readRecords(path)) {
    index++;
    const measured = activities?.get(candidateIdOf(record, index));
    yield {
      index,
      line: record.line,
      candidateId: candidateIdOf(record, index),
      name: record.name,
      smiles: record.smiles,
      ...(record.molblock === null ? {} : { molblock: record.molblock }),
      metadata: record.metadata,
      ...(measured === undefined ? {} : { activities: measured }),
    };
  }
}

// A table with an id column must fill it (an empty id is an error); without one, rows are row_<n>.
function candidateIdOf(record: SourceRecord, index: number): string {
  return record.id ?? `row_${index}`;
}

/** Runs `visit` over every record of a CSV table, turning syntax errors into CSV_INVALID naming the file. */
export async function forEachRecord(
  path: string,
  file: string,
  visit: (line: number, fields: readonly string[]) => void,
): Promise<void> {
  try {
    for await (const record of readCsvRecords(path)) visit(record.line, record.fields);
  } catch (error) {
    if (error instanceof CsvSyntaxError) {
      throw new RunnerError("CSV_INVALID", `${file} line ${error.line}: ${error.message}`, { cause: error });
    }
    throw error;
  }
}
