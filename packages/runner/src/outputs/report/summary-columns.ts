import { RUN_FILES } from "@svc/core";
import {
  CALL_WORDS,
  type CompoundView,
  findingOf,
  LIABILITY_MODELS,
  type LiabilityModel,
  MODEL_CALL_LABELS,
} from "./compound-view.ts";
import { DOCKING_COLUMNS, INCHIKEY_COLUMN, TABLE_COLUMNS, type TableColumn } from "./table-columns.ts";

/**
 * `results/report-summary.csv` (issue 37 item 8): the columns a chemist sorts and filters by, one
 * row per compound in rank order beside report.csv's every value (572 columns on a docked run).
 * The same 33 columns on every run, blank where a run has no value (no assays, no docking), so a
 * spreadsheet made for one run reads the next.
 */
export const REPORT_SUMMARY_CSV = RUN_FILES.reportSummaryCsv;

const byLabel = (label: string): TableColumn => {
  const column = [...TABLE_COLUMNS, ...DOCKING_COLUMNS].find((entry) => entry.label === label);
  if (column === undefined) throw new Error(`no table column ${label}`);
  return column;
};

const MODEL_LABELS = MODEL_CALL_LABELS;

/** A model's call as the card shows it: `yes (p 0.83)`, `no (p 0.12)`, or `unknown` out of domain or not run. */
function modelCall(id: LiabilityModel): TableColumn {
  return {
    label: MODEL_LABELS[id],
    numeric: false,
    cell: (view) => {
      const model = view.liabilities.models[id];
      return model.status === "in_domain"
        ? `${CALL_WORDS[model.call]} (p ${model.probability.toFixed(2)})`
        : "unknown";
    },
  };
}

/**
 * The customer's measured potency: the value (a bound when censored) and its qualifier in
 * pActivity terms, apart, so the numbers sort; "<" reads "less potent than the bound" (IC50 > X).
 */
const RELATION_WORDS: Readonly<Record<string, string>> = {
  "=": "measured",
  "<": "<",
  "<=": "≤",
  ">": ">",
  ">=": "≥",
};

function caco2(view: CompoundView): number | null {
  const entry = findingOf(view, "admet_predictions")?.caco2;
  return entry?.in_domain === true && "value" in entry && typeof entry.value === "number"
    ? Number(entry.value.toFixed(2))
    : null;
}

export const SUMMARY_COLUMNS: readonly TableColumn[] = [
  ...["Rank", "Candidate", "Name", "Status", "Score", "Confidence"].map(byLabel),
  {
    label: "pActivity (assays_csv)",
    numeric: true,
    cell: (view) => (view.potency === null ? null : view.potency.p_activity),
  },
  {
    label: "pActivity relation",
    numeric: false,
    cell: (view) =>
      view.potency === null ? null : (RELATION_WORDS[view.potency.relation] ?? view.potency.relation),
  },
  byLabel("Docking score (kcal/mol)"),
  ...["MW", "WLOGP", "TPSA", "HBD", "HBA", "RotB", "log S", "logD7.4", "QED", "SA", "Alerts", "Lipinski"].map(
    byLabel,
  ),
  ...LIABILITY_MODELS.map(modelCall),
  { label: "Caco-2 log Papp (cm/s)", numeric: true, cell: caco2 },
  { label: "Parent SMILES", numeric: false, cell: (view) => view.parent_smiles },
  INCHIKEY_COLUMN,
];
