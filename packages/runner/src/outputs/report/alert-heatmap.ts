import { ALERT_FAMILIES, type CompoundView, RULE_NAMES } from "./compound-view.ts";
import { escapeHtml } from "./format.ts";

export interface HeatmapRow {
  readonly id: string;
  readonly href: string | null;
  /** Per column: number of violations or matches, or null when the column's module did not run. */
  readonly cells: readonly (number | null)[];
}

const LABELS: Readonly<Record<string, string>> = {
  lipinski: "Lipinski",
  ghose: "Ghose",
  veber: "Veber",
  egan: "Egan",
  muegge: "Muegge",
  lead_likeness: "Lead-like",
  pains: "PAINS",
  brenk: "Brenk",
  nibr: "NIBR",
};

export const HEATMAP_COLUMNS = [
  ...RULE_NAMES.map((key) => ({ key, label: LABELS[key] ?? key, kind: "rule" as const })),
  ...ALERT_FAMILIES.map((key) => ({ key, label: LABELS[key] ?? key, kind: "alert" as const })),
];

/** One heat-map row: rule violations and alert matches per family for one compound. */
export function heatmapRowOf(view: CompoundView, href: string | null): HeatmapRow {
  return {
    id: view.candidate_id,
    href,
    cells: HEATMAP_COLUMNS.map((column) => {
      if (column.kind === "rule") {
        const outcome = view.rules[column.key as (typeof RULE_NAMES)[number]];
        return "pass" in outcome ? outcome.violations.length : null;
      }
      return view.alerts[column.key as (typeof ALERT_FAMILIES)[number]]?.length ?? null;
    }),
  };
}

const CELL_W = 56;
const CELL_H = 14;
const LABEL_W = 120;
const HEADER_H = 28;

/**
 * Compounds (rows, in rank order) × rule and alert families (columns): the shade is the number of
 * violations or matches; a grey column's module did not run, which is not the same as clean.
 */
export function renderAlertHeatmap(rows: readonly HeatmapRow[], totalAssessed: number): string {
  const width = LABEL_W + CELL_W * HEATMAP_COLUMNS.length + 8;
  const height = HEADER_H + CELL_H * rows.length + 4;
  const header = HEATMAP_COLUMNS.map(
    (column, at) =>
      `<text x="${LABEL_W + at * CELL_W + CELL_W / 2}" y="${HEADER_H - 8}" text-anchor="middle">${escapeHtml(column.label)}</text>`,
  ).join("");
  const body = rows
    .map((row, r) => {
      const y = HEADER_H + r * CELL_H;
      const label = `<text x="${LABEL_W - 4}" y="${y + CELL_H - 3}" text-anchor="end">${escapeHtml(row.id.length > 18 ? `${row.id.slice(0, 17)}…` : row.id)}</text>`;
      const cells = row.cells
        .map((value, c) => {
          const column = HEATMAP_COLUMNS[c];
          const cls = value === null ? "hm-na" : value === 0 ? "hm-0" : value === 1 ? "hm-1" : "hm-2";
          const text =
            value === null
              ? "module did not run"
              : `${value} ${column?.kind === "rule" ? "violation(s)" : "match(es)"}`;
          return `<rect class="${cls}" x="${LABEL_W + c * CELL_W}" y="${y}" width="${CELL_W - 1}" height="${CELL_H - 1}"><title>${escapeHtml(`${row.id} · ${column?.label}: ${text}`)}</title></rect>`;
        })
        .join("");
      const group = `<g class="mark" data-id="${escapeHtml(row.id)}">${label}${cells}</g>`;
      return row.href ? `<a href="${escapeHtml(row.href)}">${group}</a>` : group;
    })
    .join("");
  const truncated =
    rows.length < totalAssessed
      ? ` It shows the ${rows.length} highest-ranked of ${totalAssessed} compounds; report.csv has every compound.`
      : "";
  return `<figure id="plot-alert-heatmap"><svg class="plot heatmap" viewBox="0 0 ${width} ${height}" role="img" aria-label="Alerts heat map" xmlns="http://www.w3.org/2000/svg"><title>Alerts heat map</title>
${header}${body}</svg>
<figcaption>Alerts heat map: one row per compound, one column per drug-likeness rule (violations) and structural-alert family (matches). White: none; light red: one; dark red: two or more; grey: the module did not run in this build, which is not a clean result.${escapeHtml(truncated)}</figcaption></figure>`;
}
