import { open } from "node:fs/promises";
import { RunnerError } from "../runner-error.ts";
import {
  findColumn,
  locatePortfolioColumns,
  normaliseColumnName,
  PORTFOLIO_COLUMNS,
  structureColumnHint,
} from "./column-names.ts";
import { CsvSyntaxError, detectDelimiter, readCsvRecords } from "./csv.ts";
import type { SourceRecord } from "./portfolio-record.ts";

/**
 * The records of a portfolio table (CSV, semicolon- or tab-separated; delimiter from the header
 * line). Columns are found by {@link PORTFOLIO_COLUMNS} (normalised names and synonyms); every other column is metadata. Syntax
 * and shape problems are CSV_INVALID naming the file, line and field.
 */
export async function* readCsvPortfolio(
  path: string,
  file: string,
  /** Given: a row with the wrong field count is listed here (`line N: …`) and skipped, not thrown. */
  shapeProblems?: string[],
): AsyncGenerator<SourceRecord> {
  const delimiter = detectDelimiter(await readFirstLine(path));
  let header: string[] | null = null;
  let smilesAt = -1;
  let idAt = -1;
  let nameAt = -1;
  try {
    for await (const record of readCsvRecords(path, delimiter)) {
      if (header === null) {
        header = readHeader(file, record.fields);
        ({ smiles: smilesAt, id: idAt, name: nameAt } = locatePortfolioColumns(header));
        if (smilesAt < 0) {
          throw new RunnerError(
            "CSV_INVALID",
            `${file} line 1: no structure column: ${structureColumnHint()} (found: ${header.join(", ")})`,
          );
        }
        continue;
      }
      const { fields, line } = record;
      if (fields.length !== header.length) {
        const why = `${fields.length} fields, the header has ${header.length}`;
        if (shapeProblems === undefined) throw new RunnerError("CSV_INVALID", `${file} line ${line}: ${why}`);
        shapeProblems.push(`line ${line}: ${why}`);
        continue;
      }
      const metadata: Record<string, string> = {};
      header.forEach((column, at) => {
        if (at !== smilesAt && at !== idAt && at !== nameAt) metadata[column] = fields[at] ?? "";
      });
      const name = nameAt >= 0 ? (fields[nameAt] ?? "").trim() : "";
      yield {
        line,
        id: idAt >= 0 ? (fields[idAt] ?? "").trim() : null,
        name: name === "" ? null : name,
        smiles: (fields[smilesAt] ?? "").trim(),
        molblock: null,
        metadata,
      };
    }
  } catch (error) {
    if (error instanceof CsvSyntaxError)
      throw new RunnerError("CSV_INVALID", `${file} line ${error.line}: ${error.message}`, { cause: error });
    throw error;
  }
  if (header === null)
    throw new RunnerError("CSV_INVALID", `${file} line 1: empty file, expected a header row`);
}

/** The id column's header name, for messages (`candidate_id`, `ID`, …), or null. */
export async function csvIdColumn(path: string): Promise<string | null> {
  const line = await readFirstLine(path);
  const header = line
    .replace(/^\uFEFF/, "")
    .split(detectDelimiter(line))
    .map((name) => name.trim().replace(/^"|"$/g, ""));
  const at = findColumn(header, PORTFOLIO_COLUMNS.id);
  return at < 0 ? null : (header[at] as string);
}

function readHeader(file: string, fields: readonly string[]): string[] {
  const header = fields.map((name) => name.trim());
  const normal = header.map(normaliseColumnName);
  const duplicate = header.find((_, at) => normal[at] !== "" && normal.indexOf(normal[at] as string) !== at);
  if (duplicate !== undefined) {
    throw new RunnerError(
      "CSV_INVALID",
      `${file} line 1, field ${duplicate}: column appears twice in the header (letter case and punctuation ignored)`,
    );
  }
  return header;
}

/** The header line of a table (for delimiter detection), at most 64 KiB. */
export async function readFirstLine(path: string): Promise<string> {
  const handle = await open(path, "r");
  try {
    const buffer = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const text = buffer.subarray(0, bytesRead).toString("utf8");
    const end = text.search(/\r?\n/);
    return end < 0 ? text : text.slice(0, end);
  } finally {
    await handle.close();
  }
}
