import { basename } from "node:path";
import { RunnerError } from "../runner-error.ts";
import { CsvSyntaxError, readCsvRecords } from "./csv.ts";

/** How the portfolio's columns are used; found by {@link validatePortfolio}. */
export interface PortfolioLayout {
  readonly header: readonly string[];
  readonly smilesColumn: string;
  /** `candidate_id`, else `compound_id`, else null: rows are then named `row_<n>`. */
  readonly idColumn: string | null;
  readonly nameColumn: string | null;
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
  /** Customer columns carried forward unchanged. */
  readonly metadata: Readonly<Record<string, string>>;
}

/**
 * First pass over the portfolio, before any entitlement call: columns, field counts, unique ids,
 * and the primary candidate. Only the ids are kept in memory (a Set), not the rows.
 */
export async function validatePortfolio(
  path: string,
  primaryCandidateId: string | null,
): Promise<PortfolioLayout> {
  const file = `01_sources/${basename(path)}`;
  let layout: Omit<PortfolioLayout, "rowCount"> | null = null;
  const seen = new Map<string, number>();
  let rowCount = 0;
  await forEachRecord(path, file, (line, fields) => {
    if (layout === null) {
      layout = readLayout(file, fields);
      return;
    }
    rowCount++;
    if (fields.length !== layout.header.length) {
      throw new RunnerError(
        "CSV_INVALID",
        `${file} line ${line}: ${fields.length} fields, the header has ${layout.header.length}`,
      );
    }
    if (layout.idColumn !== null) {
      const id = (fields[layout.header.indexOf(layout.idColumn)] ?? "").trim();
      if (id === "") {
        throw new RunnerError(
          "CSV_INVALID",
          `${file} line ${line}, field ${layout.idColumn}: empty candidate id`,
        );
      }
      const first = seen.get(id);
      if (first !== undefined) {
        throw new RunnerError(
          "DUPLICATE_CANDIDATE_ID",
          `${file} line ${line}, field ${layout.idColumn}: duplicate candidate id "${id}" (first at line ${first})`,
        );
      }
      seen.set(id, line);
    }
  });
  if (layout === null)
    throw new RunnerError("CSV_INVALID", `${file} line 1: empty file, expected a header row`);
  if (rowCount === 0) throw new RunnerError("CSV_INVALID", `${file}: no data rows after the header`);
  const found: Omit<PortfolioLayout, "rowCount"> = layout;
  if (primaryCandidateId !== null) {
    const known =
      found.idColumn === null ? rowIds(rowCount).has(primaryCandidateId) : seen.has(primaryCandidateId);
    if (!known) {
      throw new RunnerError(
        "PRIMARY_CANDIDATE_NOT_FOUND",
        `01_sources/sources.json field primary_candidate_id: "${primaryCandidateId}" is not a candidate id of ${file}`,
      );
    }
  }
  return { ...found, rowCount };
}

/** Second pass: the rows, streamed, for analysis. */
export async function* readPortfolioRows(
  path: string,
  layout: PortfolioLayout,
): AsyncGenerator<PortfolioRow> {
  let index = 0;
  let headerSeen = false;
  const smilesAt = layout.header.indexOf(layout.smilesColumn);
  const idAt = layout.idColumn === null ? -1 : layout.header.indexOf(layout.idColumn);
  const nameAt = layout.nameColumn === null ? -1 : layout.header.indexOf(layout.nameColumn);
  for await (const record of readCsvRecords(path)) {
    if (!headerSeen) {
      headerSeen = true;
      continue;
    }
    index++;
    const metadata: Record<string, string> = {};
    layout.header.forEach((column, at) => {
      if (at !== smilesAt && at !== idAt && at !== nameAt) metadata[column] = record.fields[at] ?? "";
    });
    const name = nameAt >= 0 ? (record.fields[nameAt] ?? "").trim() : "";
    yield {
      index,
      line: record.line,
      candidateId: idAt >= 0 ? (record.fields[idAt] ?? "").trim() : `row_${index}`,
      name: name === "" ? null : name,
      smiles: (record.fields[smilesAt] ?? "").trim(),
      metadata,
    };
  }
}

function readLayout(file: string, fields: readonly string[]): Omit<PortfolioLayout, "rowCount"> {
  const header = fields.map((name) => name.trim());
  const duplicate = header.find((name, at) => header.indexOf(name) !== at);
  if (duplicate !== undefined) {
    throw new RunnerError(
      "CSV_INVALID",
      `${file} line 1, field ${duplicate}: column appears twice in the header`,
    );
  }
  const smilesColumn = ["smiles", "canonical_smiles"].find((name) => header.includes(name));
  if (smilesColumn === undefined) {
    throw new RunnerError(
      "CSV_INVALID",
      `${file} line 1: no "smiles" or "canonical_smiles" column (found: ${header.join(", ")})`,
    );
  }
  return {
    header,
    smilesColumn,
    idColumn: ["candidate_id", "compound_id"].find((name) => header.includes(name)) ?? null,
    nameColumn: header.includes("name") ? "name" : null,
  };
}

function rowIds(count: number): Set<string> {
  return new Set(Array.from({ length: count }, (_, at) => `row_${at + 1}`));
}

/** Runs `visit` over every record, turning syntax errors into CSV_INVALID naming the file. */
export async function forEachRecord(
  path: string,
  file: string,
  visit: (line: number, fields: readonly string[]) => void,
): Promise<void> {
  try {
    for await (const record of readCsvRecords(path)) visit(record.line, record.fields);
  } catch (error) {
    if (error instanceof CsvSyntaxError) {
      throw new RunnerError("CSV_INVALID", `${file} line ${error.line}: ${error.message}`);
    }
    throw error;
  }
}
