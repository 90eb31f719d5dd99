import { createHash } from "node:crypto";

// The only script on the page (issue 12 item 4): sort by any column, filter by any column, export
// the visible rows as CSV. It is inline and allowed by its SHA-256 in the CSP (CSP Level 3
// §8.3 hash-source), reads only the table, and makes no request.
export const TABLE_SCRIPT = `(() => {
  const table = document.getElementById("compounds");
  if (!table) return;
  const body = table.tBodies[0];
  const rows = Array.from(body.rows);
  const heads = Array.from(table.tHead.rows[0].cells);
  const column = document.getElementById("filter-column");
  const query = document.getElementById("filter-query");
  const shown = document.getElementById("shown-count");
  let sortAt = -1;
  let direction = 1;
  const numberOf = (cell) => {
    const v = cell.getAttribute("data-v");
    return v === null || v === "" ? Number.NaN : Number(v);
  };
  const sort = () => {
    const numeric = heads[sortAt].dataset.numeric === "1";
    const keyed = rows.map((row) => [row, numeric ? numberOf(row.cells[sortAt]) : row.cells[sortAt].textContent]);
    keyed.sort((a, b) => {
      if (numeric) {
        if (Number.isNaN(a[1])) return Number.isNaN(b[1]) ? 0 : 1;
        if (Number.isNaN(b[1])) return -1;
        return (a[1] - b[1]) * direction;
      }
      return a[1].localeCompare(b[1]) * direction;
    });
    for (const [row] of keyed) body.appendChild(row);
    heads.forEach((head, at) => head.setAttribute("aria-sort", at === sortAt ? (direction > 0 ? "ascending" : "descending") : "none"));
  };
  heads.forEach((head, at) => {
    const button = head.querySelector("button");
    if (button) button.addEventListener("click", () => {
      direction = sortAt === at ? -direction : 1;
      sortAt = at;
      sort();
    });
  });
  const filter = () => {
    const text = query.value.trim();
    const at = Number(column.value);
    const compare = /^(<=|>=|<|>|=)\\s*(-?\\d+(?:\\.\\d+)?)$/.exec(text);
    let count = 0;
    for (const row of rows) {
      const cells = at < 0 ? Array.from(row.cells) : [row.cells[at]];
      const text_of = (cell) => cell.getAttribute("data-csv") ?? cell.textContent;
      const match = text === "" || cells.some((cell) => {
        if (compare) {
          const v = numberOf(cell);
          if (Number.isNaN(v)) return false;
          const limit = Number(compare[2]);
          return compare[1] === "<" ? v < limit : compare[1] === ">" ? v > limit : compare[1] === "<=" ? v <= limit : compare[1] === ">=" ? v >= limit : v === limit;
        }
        return text_of(cell).toLowerCase().includes(text.toLowerCase());
      });
      row.hidden = !match;
      if (match) count++;
    }
    shown.textContent = String(count);
  };
  query.addEventListener("input", filter);
  column.addEventListener("change", filter);
  const field = (text) => {
    const safe = /^[=+\\-@\\t\\r]/.test(text) && Number.isNaN(Number(text)) ? "'" + text : text;
    return /[",\\r\\n]/.test(safe) ? '"' + safe.replace(/"/g, '""') + '"' : safe;
  };
  document.getElementById("export-csv").addEventListener("click", () => {
    const lines = [heads.map((head) => field(head.textContent.trim())).join(",")];
    for (const row of body.rows) if (!row.hidden) lines.push(Array.from(row.cells).map((cell) => field(cell.getAttribute("data-csv") ?? cell.textContent)).join(","));
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob(["\\uFEFF" + lines.join("\\r\\n") + "\\r\\n"], { type: "text/csv;charset=utf-8" }));
    link.download = "compounds-shown.csv";
    document.body.appendChild(link);
    link.click();
    link.remove();
  });
})();`;

/** The CSP source that allows exactly TABLE_SCRIPT. */
export const TABLE_SCRIPT_HASH = `'sha256-${createHash("sha256").update(TABLE_SCRIPT, "utf8").digest("base64")}'`;
