import { createReadStream } from "node:fs";
import { RunnerError } from "../runner-error.ts";

/** One CSV record with the 1-based line number where it starts (for error messages). */
export interface CsvRecord {
  readonly line: number;
  readonly fields: readonly string[];
}

/**
 * A CSV syntax problem at a line: a `CSV_INVALID` RunnerError whose caller names the file (each
 * reader rethrows it under its own table's code, with the file and line, keeping this as `cause`).
 */
export class CsvSyntaxError extends RunnerError {
  readonly line: number;
  constructor(line: number, message: string) {
    super("CSV_INVALID", message);
    this.line = line;
  }
}

/**
 * Streams RFC 4180 records from a file (quoted fields, doubled quotes, CRLF or LF, newlines inside
 * quotes). Memory stays bounded by the longest record, not the file (ARCHITECTURE "Streams").
 * Blank lines are skipped. A UTF-8 BOM at the start is dropped. `delimiter` is `,` (RFC 4180),
 * `;` or a tab (see {@link detectDelimiter}).
 */
export async function* readCsvRecords(path: string, delimiter = ","): AsyncGenerator<CsvRecord> {
  let field = "";
  let fields: string[] = [];
  let inQuotes = false;
  let quoteClosed = false;
  let line = 1;
  let recordLine = 1;
  let first = true;
  let pendingCr = false;
  const endRecord = (): CsvRecord | null => {
    fields.push(field);
    const record = fields.length === 1 && fields[0] === "" ? null : { line: recordLine, fields };
    fields = [];
    field = "";
    quoteClosed = false;
    return record;
  };
  const stream = createReadStream(path, { encoding: "utf8", highWaterMark: 64 * 1024 });
  for await (const chunk of stream as AsyncIterable<string>) {
    let text = chunk;
    if (first) {
      first = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    for (let i = 0; i < text.length; i++) {
      const ch = text[i] as string;
      if (pendingCr) {
        pendingCr = false;
        if (ch === "\n") continue;
      }
      if (inQuotes) {
        if (ch === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i++;
          } else if (i + 1 === text.length) {
            // The quote may be the first of a doubled pair split across chunks: peek is impossible,
            // so close the field and reopen it if the next chunk starts with a quote.
            inQuotes = false;
            quoteClosed = true;
          } else {
            inQuotes = false;
            quoteClosed = true;
          }
        } else {
          if (ch === "\n") line++;
          field += ch;
        }
        continue;
      }
      if (ch === '"') {
        if (quoteClosed && i === 0) {
          // Doubled quote split across a chunk boundary.
          field += '"';
          inQuotes = true;
          quoteClosed = false;
          continue;
        }
        if (field !== "" || quoteClosed) {
          throw new CsvSyntaxError(line, `unexpected quote inside field ${fields.length + 1}`);
        }
        inQuotes = true;
        continue;
      }
      if (ch === delimiter) {
        fields.push(field);
        field = "";
        quoteClosed = false;
        continue;
      }
      if (ch === "\n" || ch === "\r") {
        if (ch === "\r") pendingCr = true;
        const record = endRecord();
        if (record) yield record;
        line++;
        recordLine = line;
        continue;
      }
      if (quoteClosed) {
        throw new CsvSyntaxError(line, `text after closing quote in field ${fields.length + 1}`);
      }
      field += ch;
    }
  }
  if (inQuotes) throw new CsvSyntaxError(recordLine, "unterminated quoted field");
  const record = endRecord();
  if (record) yield record;
}

/** Delimiters a portfolio table may use: comma (RFC 4180), semicolon (European locales), tab. */
export const DELIMITERS = [",", ";", "\t"] as const;

/**
 * The delimiter of a table from its header line: the candidate occurring most often outside
 * quotes; comma on a tie or when none occurs (a one-column file).
 */
export function detectDelimiter(headerLine: string): string {
  const counts = new Map<string, number>(DELIMITERS.map((d) => [d, 0]));
  let inQuotes = false;
  for (const ch of headerLine) {
    if (ch === '"') inQuotes = !inQuotes;
    else if (!inQuotes && counts.has(ch)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  }
  let best = ",";
  for (const [delimiter, count] of counts) if (count > (counts.get(best) ?? 0)) best = delimiter;
  return best;
}
