import { CliError } from "../cli-error.ts";
import {
  csvField,
  findColumn,
  ID_COLUMNS,
  NAME_COLUMNS,
  type PortfolioRow,
  STRUCTURE_COLUMNS,
  splitCsvHeader,
} from "./portfolio-text.ts";

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

// A table keeps every byte but its header, where the structure (and id) column gets the name the
// audit job reads, so customer metadata columns are carried forward untouched.
/** A CSV table with its header renamed for the runner; every other byte kept. */
export function convertTable(input: string, source: string, inferred: string[]): string {
  const firstLine = input.slice(0, input.indexOf("\n") === -1 ? input.length : input.indexOf("\n"));
  const tabs = !firstLine.includes(",") && firstLine.includes("\t");
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
  const headerLine = (newline === -1 ? text : text.slice(0, newline)).replace(/\r$/, "");
  if (!headerLine.includes(",") && headerLine.includes(";"))
    throw new CliError(
      "INPUT_INVALID",
      `${source}: the header is semicolon-separated; save the table as CSV (comma-separated) or tab-separated`,
    );
  const header = splitCsvHeader(headerLine);
  const structure = findColumn(header, STRUCTURE_COLUMNS);
  if (structure === -1)
    throw new CliError(
      "INPUT_INVALID",
      `${source}: no smiles or canonical_smiles column (columns: ${header.join(", ")}); rename the structure column to smiles`,
    );
  const id = findColumn(header, ID_COLUMNS);
  const name = findColumn(header, NAME_COLUMNS);
  const renamed = header.map((cell, index) =>
    index === structure ? cell.replace(/^\uFEFF/, "").toLowerCase() : index === id ? "candidate_id" : cell,
  );
  const rows = text
    .split(/\r?\n/)
    .slice(1)
    .filter((line) => line.trim() !== "").length;
  inferred.push(`format: CSV table, ${rows} data line(s), ${header.length} column(s)`);
  inferred.push(`structure column: ${header[structure]}`);
  inferred.push(
    id === -1 ? "id column: none (rows get row_<n>)" : `id column: ${header[id]} (as candidate_id)`,
  );
  inferred.push(name === -1 ? "name column: none" : `name column: ${header[name]}`);
  const others = header.filter((_, index) => index !== structure && index !== id && index !== name);
  if (others.length > 0) inferred.push(`carried forward as metadata: ${others.join(", ")}`);
  return `${renamed.map(csvField).join(",")}${newline === -1 ? "\r\n" : text.slice(newline - (text[newline - 1] === "\r" ? 1 : 0))}`;
}
