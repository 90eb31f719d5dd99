import { RunnerError, type RunnerErrorCode } from "../runner-error.ts";
import { assertTextInput } from "./assert-text-input.ts";
import { normaliseColumnName } from "./column-names.ts";
import { CsvSyntaxError, detectDelimiter, readCsvRecords } from "./csv.ts";
import { readFirstLine } from "./portfolio-csv.ts";

/** Where each named column stands in a header (its index), -1 when none of its aliases is present. */
export type ColumnIndex<K extends string> = Record<K, number>;

/** How a staged table's header is read and refused. */
export interface TableColumns<K extends string> {
  /** The error code of every refusal: the file, the line and, where there is one, the field. */
  readonly code: RunnerErrorCode;
  /** Each column's accepted names, compared as {@link normaliseColumnName} makes them; the first present wins. */
  readonly columns: Readonly<Record<K, readonly string[]>>;
  /** Whether blank header names may repeat (columns left unnamed); any other repeated name is refused. */
  readonly blankMayRepeat: boolean;
  /** The table's own rule on which columns must be present; throws its refusal. */
  readonly require: (file: string, at: ColumnIndex<K>, header: readonly string[]) => void;
}

/** One data row of a staged table, with the header's column positions. */
export interface TableRow<K extends string> {
  readonly line: number;
  readonly header: readonly string[];
  readonly at: ColumnIndex<K>;
  /** The trimmed cell at a column index; "" for an absent column (-1). */
  cell(index: number): string;
  /** The column's name as the header spells it. */
  name(index: number): string;
}

/** Locates `table.columns` in `header`; a repeated name and a table's missing columns are refused. */
export function locateColumns<K extends string>(
  file: string,
  header: readonly string[],
  table: TableColumns<K>,
): ColumnIndex<K> {
  const normal = header.map(normaliseColumnName);
  const duplicate = normal.find(
    (name, index) => (name !== "" || !table.blankMayRepeat) && normal.indexOf(name) !== index,
  );
  if (duplicate !== undefined)
    throw new RunnerError(
      table.code,
      `${file} line 1, field ${duplicate}: column appears twice in the header`,
    );
  const at = {} as ColumnIndex<K>;
  for (const [key, aliases] of Object.entries<readonly string[]>(table.columns))
    at[key as K] = aliases.map((alias) => normal.indexOf(alias)).find((index) => index >= 0) ?? -1;
  table.require(file, at, header);
  return at;
}

/**
 * Streams the data rows of a staged CSV table (delimiter detected from its first line) after its
 * header: every row must have the header's field count; CSV syntax errors, an empty or a binary file are
 * refused with the table's code naming the file and line.
 */
export async function* readTableRows<K extends string>(
  path: string,
  file: string,
  table: TableColumns<K>,
  /** Given: a row with the wrong field count is listed here (`line N: …`) and skipped, not thrown. */
  shapeProblems?: string[],
): AsyncGenerator<TableRow<K>> {
  await assertTextInput(path, file, table.code);
  const delimiter = detectDelimiter(await readFirstLine(path));
  let header: string[] | null = null;
  let at = {} as ColumnIndex<K>;
  try {
    for await (const { line, fields } of readCsvRecords(path, delimiter)) {
      if (header === null) {
        header = fields.map((name) => name.trim());
        at = locateColumns(file, header, table);
        continue;
      }
      if (fields.length !== header.length) {
        const why = `${fields.length} fields, the header has ${header.length}`;
        if (shapeProblems === undefined) throw new RunnerError(table.code, `${file} line ${line}: ${why}`);
        shapeProblems.push(`line ${line}: ${why}`);
        continue;
      }
      const names = header;
      yield {
        line,
        header: names,
        at,
        cell: (index) => (index < 0 ? "" : (fields[index] ?? "").trim()),
        name: (index) => names[index] ?? "",
      };
    }
  } catch (error) {
    if (error instanceof CsvSyntaxError)
      throw new RunnerError(table.code, `${file} line ${error.line}: ${error.message}`, { cause: error });
    throw error;
  }
  if (header === null) throw new RunnerError(table.code, `${file} line 1: empty file, expected a header row`);
}
