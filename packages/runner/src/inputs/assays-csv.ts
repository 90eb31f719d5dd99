import { RunnerError } from "../runner-error.ts";
import { PORTFOLIO_COLUMNS } from "./column-names.ts";
import { CsvSyntaxError } from "./csv.ts";
import { readTableRows, type TableColumns } from "./csv-columns.ts";

/**
 * A measurement's qualifier in pActivity terms (ChEMBL's `standard_relation`, turned to p): `<`
 * means the compound is less potent than the bound (IC50 > 10 µM is p < 5), `>` more potent.
 */
export type Relation = "=" | "<" | "<=" | ">" | ">=";

/** One candidate's value in one assay, from its rows by {@link aggregate}'s rule. */
export interface AssayValue {
  /** p = −log10 of the molar potency (higher = more active), or the bound of a censored value. */
  readonly p: number;
  /** How `p` relates to the true value, in p terms ("=" measured; "<", ">" … a bound). */
  readonly relation: Relation;
  /** Rows the value is made of. */
  readonly rows: number;
  /** Censored rows left out because exact ones were measured (never averaged in as if exact). */
  readonly censoredIgnored: number;
}

/**
 * The staged assay table (`sources.json` field `assays_csv`), joined onto the portfolio as each
 * compound's `activities` (science `CompoundRow`): assay id → p value (−log10 of the molar
 * potency, higher = more active), replicates averaged.
 */
export interface AssayTable {
  /** Data rows with a value (exact or censored). */
  readonly rowCount: number;
  /** Data rows whose value is a bound (`>10000`, `<1`, `≥`, `≤`, or a relation column). */
  readonly censoredRows: number;
  /** Data rows with no value: blank, `n.d.`, `ND`, `NA`, `n/a`, `-` (missing, not an error). */
  readonly missingRows: number;
  /** Assay ids in order of first appearance. */
  readonly assayIds: readonly string[];
  /** Candidate id → assay id → its value with the qualifier. */
  readonly values: ReadonlyMap<string, Readonly<Record<string, AssayValue>>>;
  /**
   * Candidate id → assay id → p, the exact ("=") values only: what the models that need a number
   * (SAR, QSAR, activity cliffs) receive. A bound is not a measurement to regress on.
   */
  readonly activities: ReadonlyMap<string, Readonly<Record<string, number>>>;
  /** Candidate id → the first line naming it (for the unknown-candidate message). */
  readonly firstLine: ReadonlyMap<string, number>;
  /** The id column's name as the header spells it. */
  readonly idColumn: string;
  /** The columns read, as the header spells them (null: absent), for `svc project init`'s summary. */
  readonly columns: Readonly<Record<keyof typeof ASSAY_COLUMNS, string | null>>;
}

/** Concentration units a header may carry (`IC50 (nM)` reads `ic50_nm`), by normalised suffix. */
const HEADER_UNITS = ["nm", "um", "µm", "μm", "mm", "pm", "m"] as const;
/** Value columns that may carry their unit in the header. */
const VALUE_NAMES = [
  "value",
  "standard_value",
  "activity",
  "ic50",
  "ki",
  "kd",
  "ec50",
  "ac50",
  "gi50",
  "potency",
];

/**
 * Header names, compared normalised (column-names.ts: "pChEMBL Value" reads `pchembl_value`,
 * "IC50 (nM)" `ic50_nm`). The first alias present wins.
 */
export const ASSAY_COLUMNS = {
  id: PORTFOLIO_COLUMNS.id,
  assay: ["assay_id", "assay", "assay_chembl_id", "assay_name"],
  p: ["p_activity", "pchembl_value", "pactivity", "pchembl", "pic50", "pki", "pkd", "pec50", "pac50"],
  value: [...VALUE_NAMES, ...VALUE_NAMES.flatMap((name) => HEADER_UNITS.map((unit) => `${name}_${unit}`))],
  unit: ["unit", "units", "standard_units", "standard_unit", "activity_units"],
  relation: ["relation", "standard_relation", "activity_relation", "qualifier", "operator", "modifier"],
} as const satisfies Record<string, readonly string[]>;

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

/** Cells that mean "not measured": blank, n.d., ND, NA, n/a, NaN, NT (not tested), -, —, ?. */
const MISSING =
  /^(?:|n\.?\s?d\.?|n\.?\s?a\.?|n\/a|nan|null|none|n\.?\s?t\.?|not determined|not tested|-+|—|–|\?)$/i;

/** Whether a cell means "not measured" (see {@link MISSING}). */
export function isMissingValue(cell: string): boolean {
  return MISSING.test(cell.trim());
}

/** Qualifiers as written (ChEMBL's `standard_relation`, ASCII and Unicode), as relations on the value. */
const QUALIFIERS: ReadonlyMap<string, Relation> = new Map([
  ["=", "="],
  ["~", "="],
  ["≈", "="],
  [">", ">"],
  [">>", ">"],
  ["<", "<"],
  ["<<", "<"],
  [">=", ">="],
  ["≥", ">="],
  ["=>", ">="],
  ["<=", "<="],
  ["≤", "<="],
  ["=<", "<="],
]);

/** A relation on a concentration turned into one on p = −log10(concentration): the sense flips. */
const INVERTED: Readonly<Record<Relation, Relation>> = {
  "=": "=",
  "<": ">",
  "<=": ">=",
  ">": "<",
  ">=": "<=",
};

/** A cell read as an optional qualifier and a number (`>10000`, `≤ 1`, `~5`), or null. */
export function parseQualified(cell: string): { relation: Relation; number: number } | null {
  const match = /^(>>|<<|>=|<=|=>|=<|[=~≈<>≥≤])?\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)$/.exec(
    cell.trim(),
  );
  if (match === null) return null;
  const relation = match[1] === undefined ? "=" : QUALIFIERS.get(match[1]);
  if (relation === undefined) return null;
  return { relation, number: Number(match[2]) };
}

/** A relation column's cell (ChEMBL writes `'='`, quotes included); blank is "=". */
function parseRelationCell(cell: string): Relation | undefined {
  const text = cell
    .trim()
    .replace(/^['"]|['"]$/g, "")
    .trim();
  return text === "" ? "=" : QUALIFIERS.get(text);
}

/** Problems listed in one refusal; the count says how many more there were. */
const PROBLEMS_SHOWN = 50;

/**
 * Reads and validates the whole assay table before anything is charged. Every problem of the
 * file is collected and refused at once as ASSAYS_INVALID, each naming the line and field (one
 * problem keeps the form `<file> line N, field F: why`). Candidate ids are checked against the
 * portfolio later ({@link assertAssayCandidatesKnown}): the portfolio is streamed, not held.
 */
export async function readAssayTable(path: string, file: string): Promise<AssayTable> {
  const rows = new Map<string, Map<string, { p: number; relation: Relation }[]>>();
  const firstLine = new Map<string, number>();
  const assayIds: string[] = [];
  const problems: string[] = [];
  let columns: AssayTable["columns"] = {
    id: null,
    assay: null,
    p: null,
    value: null,
    unit: null,
    relation: null,
  };
  let rowCount = 0;
  let censoredRows = 0;
  let missingRows = 0;
  let dataRows = 0;
  const problem = (line: number, field: string, why: string) =>
    problems.push(`line ${line}, field ${field}: ${why}`);
  try {
    for await (const { line, header, at, cell, name } of readTableRows(path, file, ASSAY_TABLE, problems)) {
      dataRows++;
      if (dataRows === 1) {
        const spelled = (index: number) => (index < 0 ? null : (header[index] ?? null));
        columns = {
          id: spelled(at.id),
          assay: spelled(at.assay),
          p: spelled(at.p),
          value: spelled(at.value),
          unit: spelled(at.unit),
          relation: spelled(at.relation),
        };
      }
      const id = cell(at.id);
      if (id === "") {
        problem(line, name(at.id), "empty candidate id");
        continue;
      }
      if (!firstLine.has(id)) firstLine.set(id, line);
      const assay = at.assay < 0 ? DEFAULT_ASSAY_ID : cell(at.assay);
      if (assay === "") {
        problem(line, name(at.assay), "empty assay id");
        continue;
      }
      const measured = readValue(line, at, cell, name, problem);
      if (measured === "missing") {
        missingRows++;
        continue;
      }
      if (measured === null) continue;
      rowCount++;
      if (measured.relation !== "=") censoredRows++;
      const perAssay = rows.get(id) ?? new Map<string, { p: number; relation: Relation }[]>();
      rows.set(id, perAssay);
      const list = perAssay.get(assay) ?? [];
      if (list.length === 0) perAssay.set(assay, list);
      list.push(measured);
      if (!assayIds.includes(assay)) assayIds.push(assay);
    }
  } catch (error) {
    // A CSV syntax error ends the reading (nothing after it can be split into fields): it is the
    // last problem listed, after those found before it.
    if (!(error instanceof RunnerError && error.cause instanceof CsvSyntaxError) || problems.length === 0)
      throw error;
    problems.push(`line ${error.cause.line}: ${error.cause.message}`);
  }
  if (problems.length > 0) throw refusal(file, problems);
  if (dataRows === 0) throw new RunnerError("ASSAYS_INVALID", `${file}: no data rows after the header`);
  if (rowCount === 0)
    throw new RunnerError(
      "ASSAYS_INVALID",
      `${file}: none of its ${dataRows} data rows has a value (all blank or not determined)`,
    );
  const values = new Map<string, Record<string, AssayValue>>();
  const activities = new Map<string, Record<string, number>>();
  for (const [id, perAssay] of rows) {
    const byAssay: Record<string, AssayValue> = {};
    const exact: Record<string, number> = {};
    for (const [assay, list] of perAssay) {
      const value = aggregate(list);
      byAssay[assay] = value;
      if (value.relation === "=") exact[assay] = value.p;
    }
    values.set(id, byAssay);
    if (Object.keys(exact).length > 0) activities.set(id, exact);
  }
  return {
    rowCount,
    censoredRows,
    missingRows,
    assayIds,
    values,
    activities,
    firstLine,
    idColumn: columns.id ?? "candidate_id",
    columns,
  };
}

/**
 * One row's value in p terms, "missing" for a not-measured cell, or null after listing a problem.
 * A p column's number is p; a concentration (value + unit, the unit from its column or the
 * header) becomes p = −log10(molar) and its qualifier flips (IC50 > 10 µM is p < 5). A relation
 * column (ChEMBL's `standard_relation`) qualifies the number the row's value comes from, as in
 * ChEMBL, where it qualifies `standard_value`; a qualifier may also lead the number (`>10000`).
 */
function readValue(
  line: number,
  at: Record<keyof typeof ASSAY_COLUMNS, number>,
  cell: (index: number) => string,
  name: (index: number) => string,
  problem: (line: number, field: string, why: string) => void,
): { p: number; relation: Relation } | "missing" | null {
  const fromP = at.p >= 0 && !isMissingValue(cell(at.p));
  const fromValue = !fromP && at.value >= 0 && !isMissingValue(cell(at.value));
  if (!fromP && !fromValue) return "missing";
  const column = fromP ? at.p : at.value;
  const parsed = parseQualified(cell(column));
  if (parsed === null) {
    problem(line, name(column), `"${cell(column)}" is not a number (a qualifier such as > or ≤ may lead it)`);
    return null;
  }
  let relation = parsed.relation;
  if (at.relation >= 0) {
    const stated = parseRelationCell(cell(at.relation));
    if (stated === undefined) {
      problem(
        line,
        name(at.relation),
        `unknown relation "${cell(at.relation)}" (one of =, <, <=, >, >=, ≤, ≥, ~)`,
      );
      return null;
    }
    if (stated !== "=" && relation !== "=" && stated !== relation) {
      problem(line, name(at.relation), `relation "${stated}" contradicts the value's own "${cell(column)}"`);
      return null;
    }
    if (relation === "=") relation = stated;
  }
  if (fromP) {
    // p ≤ 0 would be a potency of 1 M or weaker: not a measured activity.
    if (parsed.number <= 0) {
      problem(line, name(column), `${cell(column)} is not positive (p = −log10 molar)`);
      return null;
    }
    return { p: parsed.number, relation };
  }
  if (parsed.number <= 0) {
    problem(line, name(column), `${cell(column)} is not positive`);
    return null;
  }
  const headerUnit = unitOfHeader(name(column));
  const unitCell = at.unit >= 0 ? cell(at.unit) : "";
  const unit = unitCell !== "" ? unitCell : headerUnit;
  if (unit === null || unit === "") {
    problem(line, at.unit < 0 ? "unit" : name(at.unit), `no unit (one of ${UNITS_ACCEPTED})`);
    return null;
  }
  const factor = MOLAR_FACTOR.get(unit.toLowerCase());
  if (factor === undefined) {
    problem(line, name(at.unit), `unknown unit "${unit}" (one of ${UNITS_ACCEPTED})`);
    return null;
  }
  return { p: round4(-Math.log10(parsed.number * factor)), relation: INVERTED[relation] };
}

/** The unit a value column's header names (`IC50 (nM)` → nM), or null. */
function unitOfHeader(header: string): string | null {
  const match = /[^\p{L}\p{N}]((?:n|u|µ|μ|m|p)?m)[^\p{L}\p{N}]*$/iu.exec(header);
  return match?.[1] ?? null;
}

/**
 * One candidate's value in one assay from its rows (documented in packages/runner/README.md,
 * "Assays"): exact values are averaged in p and censored rows beside them are left out (counted,
 * never averaged in as if exact); with censored rows only, the tightest bound is kept: the
 * highest lower bound ("> p", "≥ p"), or, with upper bounds only, the lowest upper bound; with
 * both kinds the lower bound is kept, the potency the data guarantee. Equal bounds keep the strict one.
 */
export function aggregate(list: readonly { p: number; relation: Relation }[]): AssayValue {
  const exact = list.filter((row) => row.relation === "=");
  if (exact.length > 0)
    return {
      p: round4(exact.reduce((sum, row) => sum + row.p, 0) / exact.length),
      relation: "=",
      rows: exact.length,
      censoredIgnored: list.length - exact.length,
    };
  const lower = list.filter((row) => row.relation === ">" || row.relation === ">=");
  const upper = list.filter((row) => row.relation === "<" || row.relation === "<=");
  const tightest =
    lower.length > 0
      ? lower.reduce((best, row) =>
          row.p > best.p || (row.p === best.p && row.relation === ">") ? row : best,
        )
      : upper.reduce((best, row) =>
          row.p < best.p || (row.p === best.p && row.relation === "<") ? row : best,
        );
  return { p: tightest.p, relation: tightest.relation, rows: list.length, censoredIgnored: 0 };
}

/** One ASSAYS_INVALID listing every problem (up to {@link PROBLEMS_SHOWN}). */
function refusal(file: string, problems: readonly string[]): RunnerError {
  if (problems.length === 1) return new RunnerError("ASSAYS_INVALID", `${file} ${problems[0]}`);
  const shown = problems.slice(0, PROBLEMS_SHOWN).join("; ");
  const more = problems.length > PROBLEMS_SHOWN ? `; and ${problems.length - PROBLEMS_SHOWN} more` : "";
  return new RunnerError("ASSAYS_INVALID", `${file}: ${problems.length} problems: ${shown}${more}`);
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
    const missing: string[] = [];
    if (at.id < 0)
      missing.push(
        `no "candidate_id" column (or "compound_id", "ID", "Molecule ChEMBL ID" …, in any letter case)`,
      );
    if (at.p < 0 && at.value < 0)
      missing.push(
        `no activity column: "p_activity" (or "pchembl_value", "pIC50" …), or "value" (or "standard_value", "IC50" …) with "unit" or a unit in its name ("IC50 (nM)")`,
      );
    else if (at.p < 0 && at.unit < 0 && unitOfHeader(header[at.value] ?? "") === null)
      missing.push(`a "value" column needs a "unit" column or a unit in its name, as "IC50 (nM)"`);
    if (missing.length > 0)
      throw new RunnerError("ASSAYS_INVALID", `${file} line 1: ${missing.join("; ")} (${found})`);
  },
};

function round4(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
