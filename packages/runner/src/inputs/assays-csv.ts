import { RunnerError } from "../runner-error.ts";
import { readTableRows, type TableColumns } from "./csv-columns.ts";
import { COLUMN_ALIASES } from "./portfolio-record.ts";

/**
 * The staged assay table (`sources.json` field `assays_csv`), joined onto the portfolio as each
 * compound's `activities` (science `CompoundRow`): assay id → p value (−log10 of the molar
 * potency, higher = more active), replicates averaged.
 */
export interface AssayTable {
  /** Data rows read (every one valid). */
  readonly rowCount: number;
  /** Assay ids in order of first appearance. */
  readonly assayIds: readonly string[];
  /** Candidate id → assay id → mean p value. */
  readonly activities: ReadonlyMap<string, Readonly<Record<string, number>>>;
  /** Candidate id → the first line naming it (for the unknown-candidate message). */
  readonly firstLine: ReadonlyMap<string, number>;
  /** The id column's name as the header spells it. */
  readonly idColumn: string;
}

/**
 * Header names, matched after lower-casing and turning spaces and hyphens into `_` (a ChEMBL
 * export's "pChEMBL Value" reads as `pchembl_value`). The first alias present wins.
 */
export const ASSAY_COLUMNS = {
  id: COLUMN_ALIASES.id,
  assay: ["assay_id", "assay"],
  p: ["p_activity", "pchembl_value"],
  value: ["value", "standard_value"],
  unit: ["unit", "units", "standard_units"],
} as const;

/** The assay id of rows in a table without an assay column. */
export const DEFAULT_ASSAY_ID = "assay";

/**
 * Concentration units and their factor to mol/L; matched in any letter case (the six spellings
 * stay distinct). µ is accepted both as the micro sign (U+00B5) and Greek mu (U+03BC).
 */
const MOLAR_FACTOR: ReadonlyMap<string, number> = new Map([
  ["m", 1],
  ["mm", 1e-3],
  ["um", 1e-6],
  ["\u00b5m", 1e-6],
  ["\u03bcm", 1e-6],
  ["nm", 1e-9],
  ["pm", 1e-12],
]);
export const UNITS_ACCEPTED = "M, mM, uM (µM), nM, pM";

/**
 * Reads and validates the whole assay table before anything is charged; every problem is
 * ASSAYS_INVALID naming the file, line and field. Candidate ids are checked against the
 * portfolio later ({@link assertAssayCandidatesKnown}): the portfolio is streamed, not held.
 */
export async function readAssayTable(path: string, file: string): Promise<AssayTable> {
  const sums = new Map<string, Map<string, { sum: number; n: number }>>();
  const firstLine = new Map<string, number>();
  const assayIds: string[] = [];
  let idColumn = "candidate_id";
  let rowCount = 0;
  const invalid = (line: number, field: string, why: string) =>
    new RunnerError("ASSAYS_INVALID", `${file} line ${line}, field ${field}: ${why}`);
  for await (const { line, header, at, cell, name } of readTableRows(path, file, ASSAY_TABLE)) {
    const id = cell(at.id);
    if (id === "") throw invalid(line, name(at.id), "empty candidate id");
    const assay = at.assay < 0 ? DEFAULT_ASSAY_ID : cell(at.assay);
    if (assay === "") throw invalid(line, name(at.assay), "empty assay id");
    let p: number;
    if (cell(at.p) !== "") {
      p = Number(cell(at.p));
      if (!Number.isFinite(p)) throw invalid(line, name(at.p), `"${cell(at.p)}" is not a number`);
      // p ≤ 0 would be a potency of 1 M or weaker: not a measured activity.
      if (p <= 0) throw invalid(line, name(at.p), `${cell(at.p)} is not positive (p = −log10 molar)`);
    } else if (cell(at.value) !== "") {
      const value = Number(cell(at.value));
      if (!Number.isFinite(value)) throw invalid(line, name(at.value), `"${cell(at.value)}" is not a number`);
      if (value <= 0) throw invalid(line, name(at.value), `${cell(at.value)} is not positive`);
      if (at.unit < 0 || cell(at.unit) === "")
        throw invalid(line, at.unit < 0 ? "unit" : name(at.unit), `no unit (one of ${UNITS_ACCEPTED})`);
      const factor = MOLAR_FACTOR.get(cell(at.unit).toLowerCase());
      if (factor === undefined)
        throw invalid(line, name(at.unit), `unknown unit "${cell(at.unit)}" (one of ${UNITS_ACCEPTED})`);
      p = -Math.log10(value * factor);
    } else {
      const named = [at.p, at.value].filter((index) => index >= 0).map(name);
      throw invalid(line, named.join(" / "), "no activity value");
    }
    rowCount++;
    if (rowCount === 1) idColumn = header[at.id] ?? "candidate_id";
    if (!firstLine.has(id)) firstLine.set(id, line);
    const perAssay = sums.get(id) ?? new Map<string, { sum: number; n: number }>();
    sums.set(id, perAssay);
    const entry = perAssay.get(assay);
    if (entry === undefined) {
      perAssay.set(assay, { sum: p, n: 1 });
      if (!assayIds.includes(assay)) assayIds.push(assay);
    } else {
      entry.sum += p;
      entry.n++;
    }
  }
  if (rowCount === 0) throw new RunnerError("ASSAYS_INVALID", `${file}: no data rows after the header`);
  const activities = new Map<string, Record<string, number>>();
  for (const [id, perAssay] of sums) {
    const means: Record<string, number> = {};
    for (const [assay, { sum, n }] of perAssay) means[assay] = round4(sum / n);
    activities.set(id, means);
  }
  return { rowCount, assayIds, activities, firstLine, idColumn };
}

/**
 * Every candidate id of the assay table must be a portfolio row; `portfolioIds` are the ids the
 * portfolio pass saw. Lists the first few unknown ids with their lines.
 */
export function assertAssayCandidatesKnown(
  table: AssayTable,
  file: string,
  isPortfolioId: (id: string) => boolean,
): void {
  const unknown = [...table.firstLine].filter(([id]) => !isPortfolioId(id));
  if (unknown.length === 0) return;
  const shown = unknown
    .slice(0, 5)
    .map(([id, line]) => `line ${line}, field ${table.idColumn}: "${id}"`)
    .join("; ");
  const more = unknown.length > 5 ? ` and ${unknown.length - 5} more` : "";
  throw new RunnerError(
    "ASSAY_CANDIDATE_UNKNOWN",
    `${file}: ${unknown.length} candidate id(s) not in the portfolio: ${shown}${more}`,
  );
}

/** The assay table's columns: a candidate id, and a p value or a value with its unit. */
const ASSAY_TABLE: TableColumns<keyof typeof ASSAY_COLUMNS> = {
  code: "ASSAYS_INVALID",
  columns: ASSAY_COLUMNS,
  blankMayRepeat: false,
  require: (file, at, header) => {
    const found = `found: ${header.join(", ")}`;
    if (at.id < 0)
      throw new RunnerError(
        "ASSAYS_INVALID",
        `${file} line 1: no "candidate_id" column, in any letter case (${found})`,
      );
    if (at.p < 0 && at.value < 0)
      throw new RunnerError(
        "ASSAYS_INVALID",
        `${file} line 1: no activity column: "p_activity" (or "pchembl_value"), or "value" with "unit" (${found})`,
      );
    if (at.p < 0 && at.unit < 0)
      throw new RunnerError(
        "ASSAYS_INVALID",
        `${file} line 1: a "value" column needs a "unit" column (${found})`,
      );
  },
};

function round4(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
