import type { StagedTarget } from "@svc/science/target-risk";
import { RunnerError } from "../runner-error.ts";
import { readTableRows, type TableColumns } from "./csv-columns.ts";

/**
 * Header names of the target table (`sources.json` field `targets_csv`), matched after
 * lower-casing and turning spaces and hyphens into `_`. The first alias present wins. `target`
 * holds either identifier; its format decides which.
 */
export const TARGET_COLUMNS = {
  symbol: ["gene_symbol", "target_symbol", "symbol", "gene"],
  uniprot: ["uniprot_id", "uniprot", "uniprot_accession", "accession"],
  target: ["target", "target_id"],
  name: ["target_name", "name"],
} as const;

/**
 * UniProt accession, as UniProt documents it (https://www.uniprot.org/help/accession_numbers),
 * with an optional isoform suffix (`P04637-2`).
 */
const UNIPROT = /^(?:[OPQ][0-9][A-Z0-9]{3}[0-9]|[A-NR-Z][0-9](?:[A-Z][A-Z0-9]{2}[0-9]){1,2})(?:-[0-9]+)?$/;
/** An HGNC-style gene symbol: letters and digits, with `-`, `.` or `_` inside (`HLA-A`, `C1orf112`). */
const GENE_SYMBOL = /^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,38}[A-Za-z0-9])?$/;
/** A target list is short; more rows than this is the wrong file. */
export const MAX_TARGET_ROWS = 10_000;

export function isUniprotAccession(text: string): boolean {
  return UNIPROT.test(text);
}

/**
 * Reads and validates the whole target table before anything is charged: every row needs a gene
 * symbol or a UniProt accession in a recognised format. Every problem is TARGETS_INVALID naming
 * the file, line and field. Other columns (organism, modality …) are allowed and not read.
 */
export async function readTargetTable(path: string, file: string): Promise<StagedTarget[]> {
  const invalid = (line: number, field: string, why: string) =>
    new RunnerError("TARGETS_INVALID", `${file} line ${line}, field ${field}: ${why}`);
  const targets: StagedTarget[] = [];
  for await (const { line, at, cell, name } of readTableRows(path, file, TARGET_TABLE)) {
    if (targets.length === MAX_TARGET_ROWS)
      throw new RunnerError(
        "TARGETS_INVALID",
        `${file} line ${line}: more than ${MAX_TARGET_ROWS.toLocaleString("en")} targets; stage the targets of this project only`,
      );
    let symbol = cell(at.symbol);
    let uniprot = cell(at.uniprot);
    const either = cell(at.target);
    if (symbol !== "" && !GENE_SYMBOL.test(symbol))
      throw invalid(
        line,
        name(at.symbol),
        `"${symbol}" is not a gene symbol (letters, digits, - . _; no spaces)`,
      );
    if (uniprot !== "" && !isUniprotAccession(uniprot))
      throw invalid(line, name(at.uniprot), `"${uniprot}" is not a UniProt accession (e.g. P35367, Q12809)`);
    if (either !== "") {
      if (isUniprotAccession(either)) uniprot ||= either;
      else if (GENE_SYMBOL.test(either)) symbol ||= either;
      else
        throw invalid(line, name(at.target), `"${either}" is neither a gene symbol nor a UniProt accession`);
    }
    if (symbol === "" && uniprot === "") {
      const named = [at.symbol, at.uniprot, at.target].filter((index) => index >= 0).map(name);
      throw invalid(line, named.join(" / "), "no target identifier (a gene symbol or a UniProt accession)");
    }
    targets.push({
      line,
      gene_symbol: symbol === "" ? null : symbol,
      uniprot_id: uniprot === "" ? null : uniprot,
      name: cell(at.name) === "" ? null : cell(at.name),
    });
  }
  if (targets.length === 0)
    throw new RunnerError("TARGETS_INVALID", `${file}: no data rows after the header`);
  return targets;
}

/** The target table's columns: a gene symbol, a UniProt accession or a mixed target column. */
const TARGET_TABLE: TableColumns<keyof typeof TARGET_COLUMNS> = {
  code: "TARGETS_INVALID",
  columns: TARGET_COLUMNS,
  blankMayRepeat: true,
  require: (file, at, header) => {
    if (at.symbol < 0 && at.uniprot < 0 && at.target < 0)
      throw new RunnerError(
        "TARGETS_INVALID",
        `${file} line 1: no target column: "gene_symbol" (or "target_symbol", "symbol", "gene"), ` +
          `"uniprot_id" (or "uniprot", "uniprot_accession", "accession") or "target" (found: ${header.join(", ")})`,
      );
  },
};
