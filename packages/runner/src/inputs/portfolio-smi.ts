import type { SourceRecord } from "./portfolio-record.ts";
import { readLines } from "./read-lines.ts";

/**
 * The records of a SMILES file (`.smi`, `.smiles`): one molecule per line, the SMILES then
 * whitespace then the id (the layout of RDKit's SmilesMolSupplier and of Daylight .smi files,
 * e.g. NCI first_5K.smi). A first line whose first token is "smiles" (any case) is a title line.
 * Blank lines and lines starting with `#` are skipped.
 */
export async function* readSmiPortfolio(path: string): AsyncGenerator<SourceRecord> {
  let line = 0;
  for await (const text of readLines(path)) {
    line++;
    const trimmed = text.trim();
    if (trimmed === "" || trimmed.startsWith("#")) continue;
    const [smiles = "", id = "", ...rest] = trimmed.split(/\s+/);
    if (line === 1 && smiles.toLowerCase() === "smiles") continue;
    yield {
      line,
      id: id === "" ? null : id,
      name: rest.length > 0 ? rest.join(" ") : null,
      smiles,
      molblock: null,
      metadata: {},
    };
  }
}
