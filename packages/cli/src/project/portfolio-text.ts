/** One compound read from a portfolio file. */
export interface PortfolioRow {
  id: string;
  name: string;
  smiles: string;
}

/** A CSV field quoted when it needs to be (RFC 4180 §2 rules 6-7). */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/**
 * A SMILES file (Daylight .smi): per line the SMILES, then optionally an id and a name, separated
 * by whitespace; blank and `#` lines skipped; a first line starting with `smiles` is a title.
 * Rows without an id get `row_<n>`, the runner's own default.
 */
export function parseSmiText(text: string): PortfolioRow[] {
  const rows: PortfolioRow[] = [];
  const lines = text.split(/\r?\n/);
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    if (index === 0 && /^smiles\b/i.test(line)) continue;
    const [smiles = "", id, ...rest] = line.split(/\s+/);
    rows.push({ smiles, id: id ?? `row_${rows.length + 1}`, name: rest.join(" ") });
  }
  return rows;
}

/** One SD record: the molblock (up to `M  END`), its title line and its data items. */
export interface SdRecord {
  molblock: string;
  title: string;
  data: Record<string, string>;
}

/**
 * Splits an SD file (CTfile formats: records end with `$$$$`, data items `> <name>` after
 * `M  END`). `malformed` counts the non-empty chunks without a molblock, so none is dropped silently.
 */
export function splitSdText(text: string): { records: SdRecord[]; malformed: number } {
  const records: SdRecord[] = [];
  let malformed = 0;
  for (const chunk of text.replace(/\r\n/g, "\n").split(/^\$\$\$\$\s*$/m)) {
    if (chunk.trim() === "") continue;
    const body = chunk.replace(/^\n/, "");
    const end = body.indexOf("M  END");
    if (end === -1) {
      malformed++;
      continue;
    }
    const molblock = body.slice(0, end + "M  END".length);
    const data: Record<string, string> = {};
    const items = body.slice(end + "M  END".length);
    for (const match of items.matchAll(/^>.*?<([^>]+)>.*\n([\s\S]*?)(?=\n\s*\n|\n>|$)/gm)) {
      if (match[1] !== undefined) data[match[1]] = (match[2] ?? "").trim();
    }
    records.push({ molblock, title: (molblock.split("\n")[0] ?? "").trim(), data });
  }
  return { records, malformed };
}

/** Splits one CSV header line (quotes honoured). */
export function splitCsvHeader(line: string): string[] {
  const cells: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (quoted) {
      if (char === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ",") {
      cells.push(cell);
      cell = "";
    } else cell += char;
  }
  cells.push(cell);
  return cells.map((value) => value.trim());
}
