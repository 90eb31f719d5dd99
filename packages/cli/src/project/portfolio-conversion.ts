import {
  CANONICAL_PORTFOLIO_COLUMNS,
  locatePortfolioColumns,
  type PortfolioColumns,
  structureColumnHint,
} from "@svc/runner/column-names";
import { CliError } from "../cli-error.ts";
import { csvField, type PortfolioRow, splitCsvHeader } from "./portfolio-text.ts";
import { type SmilesScreen, screenSmiles } from "./smiles-screen.ts";

/** The rows as `portfolio_selected.csv` (candidate_id, name, smiles, then extra columns). */
export function rowsToCsv(
  rows: PortfolioRow[],
  extra: string[] = [],
  extraValues: Record<string, string>[] = [],
): string {
  const header = ["candidate_id", "name", "smiles", ...extra];
  const lines = rows.map((row, index) =>
    [row.id, row.name, row.smiles, ...extra.map((column) => extraValues[index]?.[column] ?? "")]
      .map(csvField)
      .join(","),
  );
  return `${[header.join(","), ...lines].join("\r\n")}\r\n`;
}

/** Ids must be unique (the runner refuses duplicates); the error names the first repeated one. */
export function assertUniqueIds(rows: PortfolioRow[], source: string): void {
  const seen = new Set<string>();
  for (const row of rows) {
    if (seen.has(row.id))
      throw new CliError(
        "INPUT_INVALID",
        `${source}: the id ${row.id} appears twice; give every compound a unique id`,
      );
    seen.add(row.id);
  }
}

/** A table's header, its portfolio columns and the SMILES screen of its first rows. */
export interface TableHead {
  readonly tabs: boolean;
  readonly header: readonly string[];
  readonly at: PortfolioColumns;
  readonly screen: SmilesScreen;
}

/**
 * Reads the header and screens the first rows' structure column (smiles-screen.ts) of a table's
 * text, or of its first bytes cut at a line end: what init refuses a file for before reading all
 * of it (issue 37 item 7: 50 MB of junk refused in milliseconds). Refuses a header without a
 * structure column.
 */
export function readTableHead(input: string, source: string): TableHead {
  const firstLine = input.slice(0, input.indexOf("\n") === -1 ? input.length : input.indexOf("\n"));
  const tabs = !firstLine.includes(",") && firstLine.includes("\t");
  const headerLine = firstLine.replace(/\r$/, "");
  if (!tabs && !headerLine.includes(",") && headerLine.includes(";"))
    throw new CliError(
      "INPUT_INVALID",
      `${source}: the header is semicolon-separated; save the table as CSV (comma-separated) or tab-separated`,
    );
  const split = (line: string) => (tabs ? line.split("\t").map((cell) => cell.trim()) : splitCsvHeader(line));
  const header = split(headerLine.replace(/^\uFEFF/, ""));
  const at = locatePortfolioColumns(header);
  if (at.smiles === -1)
    throw new CliError(
      "INPUT_INVALID",
      `${source}: no structure column: ${structureColumnHint()} (columns: ${header.join(", ")}); rename the structure column to smiles`,
    );
  // The text is walked by index, not split: only the first rows are looked at.
  const screen = screenSmiles(
    (function* () {
      let line = 1;
      let start = input.indexOf("\n") + 1;
      while (start > 0 && start < input.length) {
        const end = input.indexOf("\n", start);
        const text = input.slice(start, end === -1 ? input.length : end).replace(/\r$/, "");
        line++;
        if (text.trim() !== "") yield { line, text: split(text)[at.smiles] ?? "" };
        start = end + 1;
      }
    })(),
  );
  return { tabs, header, at, screen };
}

// A table keeps every byte but its header, where the structure, id and name columns get the names
// the audit job documents, so customer metadata columns are carried forward untouched.
/**
 * A CSV table with its header renamed for the runner (the columns found by the runner's own
 * synonym table, PORTFOLIO_COLUMNS); every other byte kept. What was matched goes to `inferred`.
 */
export function convertTable(
  input: string,
  source: string,
  inferred: string[],
  /** Called with the data line count before the table is converted; may throw. */
  gate: (rows: number) => void = () => {},
): { csv: string; rows: number; screen: SmilesScreen } {
  const { tabs, header, at, screen } = readTableHead(input, source);
  const rows = countDataLines(input);
  gate(rows);
  // A tab-separated table (.tsv, or a .txt saved from a spreadsheet) becomes CSV field by field:
  // IANA text/tab-separated-values has no quoting, a field never holds a tab.
  const text = tabs
    ? input
        .split(/\r?\n/)
        .map((line) => (line === "" ? line : line.split("\t").map(csvField).join(",")))
        .join("\r\n")
    : input;
  if (tabs) inferred.push("delimiter: tab (converted to CSV)");
  const newline = text.indexOf("\n");
  const canonical = CANONICAL_PORTFOLIO_COLUMNS;
  const renamed = header.map((cell, index) =>
    index === at.smiles
      ? canonical.smiles
      : index === at.id
        ? canonical.id
        : index === at.name
          ? canonical.name
          : cell.replace(/^\uFEFF/, ""),
  );
  const matched = (index: number, as: string) =>
    header[index] === as ? `${as}` : `${JSON.stringify(header[index])} (read as ${as})`;
  inferred.push(`format: CSV table, ${rows} data line(s), ${header.length} column(s)`);
  inferred.push(`structure column: ${matched(at.smiles, canonical.smiles)}`);
  inferred.push(
    at.id === -1 ? "id column: none (rows get row_<n>)" : `id column: ${matched(at.id, canonical.id)}`,
  );
  inferred.push(at.name === -1 ? "name column: none" : `name column: ${matched(at.name, canonical.name)}`);
  const others = header.filter((_, index) => index !== at.smiles && index !== at.id && index !== at.name);
  if (others.length > 0) inferred.push(`carried forward as metadata: ${others.join(", ")}`);
  return {
    csv: `${renamed.map(csvField).join(",")}${newline === -1 ? "\r\n" : text.slice(newline - (text[newline - 1] === "\r" ? 1 : 0))}`,
    rows,
    screen,
  };
}

/** Lines after the header that hold more than white space, counted without splitting the text. */
function countDataLines(text: string): number {
  let count = 0;
  let start = text.indexOf("\n") + 1;
  while (start > 0 && start < text.length) {
    const end = text.indexOf("\n", start);
    const stop = end === -1 ? text.length : end;
    for (let at = start; at < stop; at++) {
      const code = text.charCodeAt(at);
      if (code !== 0x20 && code !== 0x09 && code !== 0x0d) {
        count++;
        break;
      }
    }
    start = stop + 1;
  }
  return count;
}
