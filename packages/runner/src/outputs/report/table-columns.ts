import { ALERT_FAMILIES, type CompoundView, type Quantity, type RuleName } from "./compound-view.ts";
import { desirabilityOf } from "./desirability.ts";
import { bestDocking } from "./docking-results.ts";
import { formatNumber } from "./format.ts";
import { inClassDomain, shownScore } from "./ranking.ts";

/** Where a row sits besides its own values: its rank and its Butina cluster (null: not clustered). */
export interface RowPlace {
  readonly rank: number;
  readonly cluster: number | null;
}

/** One column of the compound table and of report.csv (same cells, so the export matches). */
export interface TableColumn {
  readonly label: string;
  readonly numeric: boolean;
  readonly cell: (view: CompoundView, place: RowPlace) => string | number | null;
  /** The table shows the structure thumbnail in this column (the CSV has the parent SMILES). */
  readonly thumbnail?: true;
  /**
   * The printed table (report.pdf) shows this column: an A4 page holds about eighteen columns
   * whose numbers never break (issue 37 item 8); report.html and report.csv keep every column.
   */
  readonly print?: true;
}

const quantity = (pick: (view: CompoundView) => Quantity, digits: number) => (view: CompoundView) => {
  const value = pick(view).value;
  return value === null ? null : Number(formatNumber(value, digits));
};

const rule = (name: RuleName) => (view: CompoundView) => {
  const outcome = view.rules[name];
  if (!("pass" in outcome)) return null;
  return outcome.pass ? "pass" : `fail: ${outcome.violations.join("; ")}`;
};

const scoreOf = (view: CompoundView) => (view.parsed ? shownScore(desirabilityOf(view).score) : null);
const confidenceOf = (view: CompoundView) =>
  view.parsed ? Number(desirabilityOf(view).confidence.toFixed(2)) : null;

export const TABLE_COLUMNS: readonly TableColumn[] = [
  { label: "Rank", numeric: true, cell: (_, place) => place.rank, print: true },
  { label: "Candidate", numeric: false, cell: (view) => view.candidate_id, print: true },
  { label: "Structure", numeric: false, cell: (view) => view.parent_smiles, thumbnail: true, print: true },
  { label: "Name", numeric: false, cell: (view) => view.name, print: true },
  { label: "Status", numeric: false, cell: statusOf, print: true },
  { label: "Score", numeric: true, cell: scoreOf, print: true },
  { label: "Confidence", numeric: true, cell: confidenceOf, print: true },
  { label: "Cluster", numeric: true, cell: (_, place) => place.cluster },
  { label: "MW", numeric: true, cell: quantity((v) => v.props.mw, 1), print: true },
  { label: "WLOGP", numeric: true, cell: quantity((v) => v.props.wlogp, 2), print: true },
  { label: "TPSA", numeric: true, cell: quantity((v) => v.props.tpsa, 1), print: true },
  { label: "HBD", numeric: true, cell: quantity((v) => v.props.hbd, 0), print: true },
  { label: "HBA", numeric: true, cell: quantity((v) => v.props.hba, 0), print: true },
  { label: "RotB", numeric: true, cell: quantity((v) => v.props.rotatable_bonds, 0) },
  { label: "Fsp3", numeric: true, cell: quantity((v) => v.props.fsp3, 2) },
  { label: "QED", numeric: true, cell: quantity((v) => v.props.qed, 2), print: true },
  { label: "SA", numeric: true, cell: quantity((v) => v.props.sa_score, 1), print: true },
  { label: "logD7.4", numeric: true, cell: quantity((v) => v.props.logd74, 2), print: true },
  { label: "log S", numeric: true, cell: quantity((v) => v.props.log_s, 2), print: true },
  { label: "GI abs.", numeric: false, cell: (view) => view.boiled_egg?.gi_absorption ?? null },
  { label: "Lipinski", numeric: false, cell: rule("lipinski") },
  { label: "Veber", numeric: false, cell: rule("veber") },
  { label: "Egan", numeric: false, cell: rule("egan") },
  { label: "Alerts", numeric: true, cell: alertsOf, print: true },
  { label: "Readiness", numeric: true, cell: (view) => view.readiness?.score ?? null },
  // Share of the readiness signals present in domain (issue 24 item 1): < 1 when an estimate is
  // missing or out of its model's domain.
  { label: "Readiness coverage", numeric: true, cell: (view) => view.readiness?.coverage ?? null },
];

/**
 * molecular_docking's values (issue 25 item 10), in the table and report.csv when the run docked:
 * the best score over the staged structures and the ligand efficiency of that pose.
 */
export const DOCKING_COLUMNS: readonly TableColumn[] = [
  {
    label: "Docking score (kcal/mol)",
    numeric: true,
    print: true,
    cell: (view) => {
      const score = bestDocking(view.docking)?.score ?? null;
      return score === null ? null : Number(formatNumber(score, 2));
    },
  },
  {
    label: "LE (kcal/mol/HA)",
    numeric: true,
    cell: (view) => {
      const le = bestDocking(view.docking)?.ligand_efficiency ?? null;
      return le === null ? null : Number(formatNumber(le, 3));
    },
  },
];

/** report.csv only: which structure gave the best score, and its pose checks (the card shows both). */
export const DOCKING_CSV_COLUMNS: readonly TableColumn[] = [
  {
    label: "Docking structure (pdbs index)",
    numeric: false,
    cell: (view) => bestDocking(view.docking)?.structure ?? null,
  },
  {
    label: "Pose checks",
    numeric: false,
    cell: (view) => {
      const checks = bestDocking(view.docking)?.pose_checks ?? null;
      if (checks === null) return null;
      return checks.passed ? "pass" : `fail: ${checks.failed.join("; ")}`;
    },
  },
];

/** The last column of the table (after the customer's own columns). */
export const INCHIKEY_COLUMN: TableColumn = {
  label: "Parent InChIKey",
  numeric: false,
  cell: (view) => view.parent_inchikey,
};

/**
 * The table's columns: the report's own (with the docking columns when the run docked), then every
 * column of the customer's portfolio (e.g. IC50_nM; numeric when every given value is a number),
 * then the parent InChIKey.
 */
export function tableColumns(
  customer: readonly { name: string; numeric: boolean }[],
  docked = false,
): TableColumn[] {
  return [
    ...TABLE_COLUMNS,
    ...(docked ? DOCKING_COLUMNS : []),
    ...customer.map(
      ({ name, numeric }): TableColumn => ({
        label: name,
        numeric,
        cell: (view) => {
          const value = view.metadata[name];
          if (value === undefined || value === "") return null;
          return numeric ? Number(value) : value;
        },
      }),
    ),
    INCHIKEY_COLUMN,
  ];
}

/** Extra columns in report.csv only (long text the page shows on the cards). */
export const CSV_ONLY_COLUMNS: readonly TableColumn[] = [
  { label: "Parent SMILES", numeric: false, cell: (view) => view.parent_smiles },
  { label: "Input SMILES", numeric: false, cell: (view) => view.input_smiles },
  { label: "Parse error", numeric: false, cell: (view) => view.parse_error },
];

function statusOf(view: CompoundView): string {
  // The runner marks rows RDKit never judged (size guard, fault, time budget) "unassessed: …".
  if (!view.parsed) return view.parse_error?.startsWith("unassessed:") ? "unassessed" : "unparseable";
  if (view.duplicate_of !== null) return `duplicate of ${view.duplicate_of}`;
  if (!inClassDomain(view)) return `parsed (${view.compound_class}: outside every model's domain)`;
  return view.salt_stripped ? "parsed (salt stripped)" : "parsed";
}

function alertsOf(view: CompoundView): number | null {
  let total: number | null = null;
  for (const family of ALERT_FAMILIES) {
    const hits = view.alerts[family];
    if (hits !== null) total = (total ?? 0) + hits.length;
  }
  return total;
}

/** RFC 4180 field; text that a spreadsheet would run as a formula is prefixed with ' (OWASP CSV injection). */
export function csvField(value: string | number | null, numeric: boolean): string {
  if (value === null) return "";
  let text = String(value);
  if (!numeric && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
