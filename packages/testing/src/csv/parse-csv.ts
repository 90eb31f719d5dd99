/**
 * RFC 4180 rows of a CSV text (quoted fields, doubled quotes, CRLF or LF line ends), for tests
 * that read a report.csv or an exported table back; a last line without its line end is kept. A
 * leading UTF-8 byte-order mark (report.csv starts with one) is dropped, as spreadsheets do.
 */
export function parseCsv(input: string): string[][] {
  const text = input.replace(/^\uFEFF/, "");
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let at = 0; at < text.length; at++) {
    const ch = text[at] as string;
    if (quoted) {
      if (ch === '"' && text[at + 1] === '"') {
        field += '"';
        at++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(field);
      field = "";
    } else if (ch === "\n") {
      row.push(field.replace(/\r$/, ""));
      rows.push(row);
      row = [];
      field = "";
    } else field += ch;
  }
  if (field !== "" || row.length > 0) rows.push([...row, field]);
  return rows;
}
