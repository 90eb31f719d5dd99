import type { CompoundView } from "./compound-view.ts";
import { anchorId, escapeHtml } from "./format.ts";
import type { RowPlace, TableColumn } from "./table-columns.ts";

/** The table's opening: filter controls, export button and sortable headers. */
export function renderTableHead(
  columns: readonly TableColumn[],
  shownRows: number,
  totalRows: number,
): string {
  const options = columns
    .map((column, at) => `<option value="${at}">${escapeHtml(column.label)}</option>`)
    .join("");
  const truncation =
    shownRows < totalRows
      ? `<p class="truncated">The table shows the ${shownRows} highest-ranked of ${totalRows} compounds, to keep this page under 25 MB; <a href="report.csv">report.csv</a> has all ${totalRows}.</p>`
      : `<p>All ${totalRows} compounds; the same columns and the SMILES are in <a href="report.csv">report.csv</a>.</p>`;
  const heads = columns
    .map(
      (column) =>
        `<th data-numeric="${column.numeric ? "1" : "0"}" aria-sort="none"><button type="button">${escapeHtml(column.label)}</button></th>`,
    )
    .join("");
  // Printed, the table keeps the columns marked `print` (table-columns.ts): the rest would push
  // an A4 table past the page or break its numbers (issue 37 item 8).
  const unprinted = columns
    .map((column, at) => (column.print ? null : `#compounds tr>:nth-child(${at + 1})`))
    .filter((selector) => selector !== null);
  const printStyle =
    unprinted.length === 0
      ? ""
      : `<style>@media print{${unprinted.join(",")}{display:none}}</style>
`;
  return `${truncation}
${printStyle}<div class="controls"><label>Filter <select id="filter-column"><option value="-1">any column</option>${options}</select></label>
<label><input id="filter-query" type="search" placeholder="text, or &gt;500, &lt;=5 …"></label>
<span>showing <b id="shown-count">${shownRows}</b> of ${shownRows} rows</span>
<button type="button" id="export-csv">Export shown rows as CSV</button></div>
<div class="table-scroll"><table id="compounds"><thead><tr>${heads}</tr></thead><tbody>
`;
}

/**
 * One row; numeric cells carry their value in data-v for sorting and comparison filters, the
 * structure cell its SMILES in data-csv (what the export writes) and the thumbnail when drawn.
 */
export function renderTableRow(
  columns: readonly TableColumn[],
  view: CompoundView,
  place: RowPlace,
  hasCard: boolean,
  thumbnail: string | null,
): string {
  const cells = columns
    .map((column, at) => {
      const value = column.cell(view, place);
      if (column.thumbnail)
        return `<td class="thumb" data-csv="${escapeHtml(String(value ?? ""))}">${thumbnail ?? ""}</td>`;
      if (value === null) return `<td class="na"></td>`;
      const text = escapeHtml(String(value));
      const content =
        at === 1 && hasCard ? `<a href="#${anchorId("card", view.candidate_id)}">${text}</a>` : text;
      const failing = typeof value === "string" && value.startsWith("fail") ? ` class="fail"` : "";
      return column.numeric ? `<td data-v="${value}">${content}</td>` : `<td${failing}>${content}</td>`;
    })
    .join("");
  return `<tr>${cells}</tr>\n`;
}

export const TABLE_TAIL = "</tbody></table></div>\n";
