import { RunnerError } from "../runner-error.ts";
import { findColumn, PORTFOLIO_COLUMNS } from "./column-names.ts";
import type { SourceRecord } from "./portfolio-record.ts";
import { readLines } from "./read-lines.ts";

/**
 * The records of an SD file (CTfile formats, BIOVIA 2020: a molblock, V2000 or V3000, ending in
 * `M  END`, then data items `> <name>` + value lines + a blank line, then `$$$$`). The molblock
 * goes to RDKit's molblock reader in the worker pool; the title line is the name, data items are
 * metadata, and an item named as an id column ({@link PORTFOLIO_COLUMNS}: `candidate_id`,
 * `compound_id`, `ID`, `Molecule ChEMBL ID` …) is the id, else the title. Streams one
 * record at a time.
 */
export async function* readSdfPortfolio(path: string, file: string): AsyncGenerator<SourceRecord> {
  let line = 0;
  let start = 1;
  let block: string[] = [];
  for await (const text of readLines(path)) {
    line++;
    if (text.startsWith("$$$$")) {
      yield parseRecord(block, start, file);
      block = [];
      start = line + 1;
      continue;
    }
    block.push(text);
  }
  if (block.some((text) => text.trim() !== "")) yield parseRecord(block, start, file);
}

function parseRecord(block: readonly string[], line: number, file: string): SourceRecord {
  const end = block.findIndex((text) => text.startsWith("M  END"));
  if (end < 0) throw new RunnerError("SDF_INVALID", `${file} line ${line}: SD record without "M  END"`);
  const molblock = `${block.slice(0, end + 1).join("\n")}\n`;
  const metadata: Record<string, string> = {};
  let at = end + 1;
  while (at < block.length) {
    const match = /^>.*<([^>]+)>/.exec(block[at] as string);
    at++;
    if (match === null) continue;
    const values: string[] = [];
    while (at < block.length && (block[at] as string).trim() !== "") values.push(block[at++] as string);
    metadata[(match[1] as string).trim()] = values.join("\n");
  }
  const keys = Object.keys(metadata);
  const idKey = keys[findColumn(keys, PORTFOLIO_COLUMNS.id)];
  const id = idKey === undefined ? null : (metadata[idKey] ?? "").trim();
  if (idKey !== undefined) delete metadata[idKey];
  // The title line names the molecule; without an id item it is the id too (as in NCI or
  // ChEMBL exports), and a blank title leaves the row to be `row_<n>`.
  const title = (block[0] ?? "").trim() || null;
  return { line, id: id === "" || id === null ? title : id, name: title, smiles: "", molblock, metadata };
}
