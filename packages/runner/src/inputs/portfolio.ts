import { basename, extname } from "node:path";
import { RunnerError } from "../runner-error.ts";
import { CsvSyntaxError, readCsvRecords } from "./csv.ts";
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

function readRecords(path: string): AsyncGenerator<SourceRecord> {
  const file = `01_sources/${basename(path)}`;
  const format = portfolioFormat(path);
  if (format === "sdf") return readSdfPortfolio(path, file);
  if (format === "smi") return readSmiPortfolio(path);
  return readCsvPortfolio(path, file);
}

/**
 * First pass over the portfolio, before any entitlement call: format, columns, field counts,
 * unique ids, and the primary candidate. Only the ids are kept in memory (a Map), not the rows.
 */
export async function validatePortfolio(
  path: string,
  primaryCandidateId: string | null,
  onId?: (id: string) => void,
): Promise<PortfolioLayout> {
  const file = `01_sources/${basename(path)}`;
  const format = portfolioFormat(path);
  const idField = format === "table" ? ((await csvIdColumn(path)) ?? "candidate_id") : "id";
  const seen = new Map<string, number>();
  let rowCount = 0;
  for await (const record of readRecords(path)) {
    rowCount++;
    const id = candidateIdOf(record, rowCount);
    if (id === "") {
      throw new RunnerError(
        "CSV_INVALID",
        `${file} line ${record.line}, field ${idField}: empty candidate id`,
      );
    }
    const first = seen.get(id);
    if (first !== undefined) {
      throw new RunnerError(
        "DUPLICATE_CANDIDATE_ID",
        `${file} line ${record.line}, field ${idField}: duplicate candidate id "${id}" (first at line ${first})`,
      );
    }
    seen.set(id, record.line);
    onId?.(id);
  }
  if (rowCount === 0) {
    throw new RunnerError(
      format === "sdf" ? "SDF_INVALID" : "CSV_INVALID",
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
