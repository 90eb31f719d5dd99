import type { CliIo } from "../cli-io.ts";

/** Prints `value` as JSON when asked, else the human lines. */
export function emit(io: CliIo, json: boolean | undefined, value: unknown, lines: () => string[]): void {
  if (json) io.stdout(`${JSON.stringify(value, null, 2)}\n`);
  else for (const line of lines()) io.stdout(`${line}\n`);
}

/** A fixed-width table; the last column is not padded. */
export function formatTable(header: string[], rows: string[][]): string[] {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? "").length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
      .join("  ")
      .trimEnd();
  return [line(header), ...rows.map(line)];
}
