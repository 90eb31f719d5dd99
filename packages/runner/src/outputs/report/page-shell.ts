import type { RunFacts } from "../run-facts.ts";
import { escapeHtml } from "./format.ts";
import type { InlineScript } from "./pose-viewer-script.ts";
import { TABLE_SCRIPT, TABLE_SCRIPT_HASH } from "./table-script.ts";

// Everything is inline and nothing is fetched: default-src 'none'; each script (the table's, and
// 3Dmol.js with the pose viewer's when a card shows a pose) is allowed by its hash; images only as
// data: URLs (RDKit depictions are inline SVG).
const cspOf = (scripts: readonly InlineScript[]) =>
  `default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src ${[TABLE_SCRIPT_HASH, ...scripts.map((script) => script.hash)].join(" ")}`;

// Print: the page on A4, controls hidden, the table cut to its first 200 rows and the cards to the
// first 15 (report.csv and the page itself keep the rest), so a PDF stays within a page bound.
export const PRINT_TABLE_ROWS = 200;
// 15 since the cards carry fourteen modules' findings, about 2.4 A4 pages each (25 cards of eleven modules and 50 of six fitted the 80 pages before).
export const PRINT_CARDS = 15;
/**
 * Around what the printed copy leaves out (table rows past PRINT_TABLE_ROWS, cards past
 * PRINT_CARDS). Chromium lays out a whole document before printing even what print CSS hides: a
 * 5,000-compound page (21 MB) took 70 s and 3 GB in its renderer; the copy it prints instead is cut
 * at these comments (print-report-pdf.ts), and shows the same.
 */
export const PRINT_SKIP_START = "<!--print:skip-->";
export const PRINT_SKIP_END = "<!--print:end-->";

const STYLE = `body{font-family:system-ui,sans-serif;margin:1.5em 2em;color:#1a1a1a;line-height:1.35;font-size:14px}
h1{margin:.2em 0}h2{border-bottom:2px solid #444;padding-bottom:2px;margin-top:1.6em}h3{margin:.6em 0 .3em}
code{font-size:12px;word-break:break-all}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:3px 6px;vertical-align:top;font-size:13px;text-align:left}
th{background:#f0f0f0}th button{font:inherit;font-weight:bold;border:0;background:none;cursor:pointer;padding:0}
th[aria-sort=ascending] button::after{content:" ▲"}th[aria-sort=descending] button::after{content:" ▼"}
td.na::after{content:"—";color:#888}td.fail{color:#a11}.pass{color:#126b12}.fail{color:#a11}.err{color:#a11}
.seal-box{display:grid;grid-template-columns:1fr 1fr;gap:0;border:2px solid #333;margin:1em 0}
.seal-half{padding:8px 14px}.seal-half+.seal-half{border-left:2px solid #333}.seal-status{font-size:22px;font-weight:bold;margin:.2em 0}
.grid2{display:grid;grid-template-columns:1fr 1fr;gap:16px}.panel{border:1px solid #bbb;padding:6px 12px;margin:8px 0}
.rate{display:inline-block;width:120px;height:10px;background:#f1d4d4}.rate span{display:block;height:10px;background:#3a8a3a}
tr.missing td{color:#a11}.truncated{background:#fff4d6;padding:6px;border:1px solid #e0c060}
.controls{display:flex;gap:12px;align-items:center;margin:8px 0;flex-wrap:wrap}
.plots{display:grid;grid-template-columns:1fr 1fr;gap:16px}.hists{display:grid;grid-template-columns:repeat(3,1fr);gap:8px}
figure{margin:0}figcaption{font-size:12px;color:#333}svg.plot{width:100%;height:auto;font-size:10px}
.axis line{stroke:#333}.axis text{fill:#333}.label{font-size:11px}.egg-bg{fill:#9a9a9a}.egg-white{fill:#fff;stroke:#555}.egg-yolk{fill:#f6d743;stroke:#8a7000}
.boiled-egg .mark{fill:#1f4e9e;stroke:#fff;stroke-width:.6}.space .mark{fill:#1f4e9e;opacity:.75}.point-label{font-size:8px;fill:#111}
.bar{fill:#4a78b5}.hm-0{fill:#fff;stroke:#ccc}.hm-1{fill:#f0a0a0}.hm-2{fill:#b22}.hm-na{fill:#d9d9d9;stroke:#fff}
svg.heatmap{max-width:720px;font-size:10px}svg.radar{width:230px;height:230px;font-size:9px}.radar-band{fill:#f4b6c2;opacity:.7}
.radar-axis{stroke:#888}.missing-axis{stroke-dasharray:3 3}.radar-value{fill:rgba(200,30,30,.15);stroke:#c11;stroke-width:1.5}.radar-dot{fill:#c11}
.card{border:1px solid #999;padding:8px 12px;margin:14px 0;break-inside:auto;overflow:hidden}.card h3{break-after:avoid}.card-top{display:flex;gap:12px;flex-wrap:wrap;align-items:flex-start}
.mol svg{width:260px;height:180px;display:block}.mol.err{width:260px}
.panels{display:grid;grid-template-columns:repeat(auto-fill,minmax(300px,1fr));gap:8px 12px;margin-top:6px}
.cp{border:1px solid #ddd;border-radius:3px;padding:4px 8px;min-width:0;break-inside:avoid}.cp h4{margin:.2em 0 .3em;font-size:13px;color:#1f4e9e}.cp h5{margin:.4em 0 .2em;font-size:12px}
.cp p{margin:.3em 0;font-size:12px;overflow-wrap:anywhere}.na-note{color:#555}
table.kv,table.list{width:100%;table-layout:fixed;border-collapse:collapse}table.kv th,table.kv td,table.list th,table.list td{font-size:12px;padding:2px 4px;border:0;border-bottom:1px solid #eee;overflow-wrap:anywhere;word-break:break-word}
.cp code{font-size:inherit}table.kv th{width:38%;background:none;font-weight:600;color:#333}table.list th{background:#f6f6f6}small{color:#555}
.light{display:inline-block;width:9px;height:9px;border-radius:50%;margin-right:5px;vertical-align:baseline}.light.g{background:#2e8b3a}.light.a{background:#e0a000}.light.r{background:#c62828}
.ood{color:#8a8a8a}span.ood{text-decoration:line-through dotted}
.evidence-ids{font-size:12px;margin-top:6px}.evidence{display:inline-block;margin-right:10px;color:#444}.evidence pre{display:none;font-size:11px;white-space:pre-wrap;overflow-wrap:anywhere;background:#f6f6f6;max-height:420px;overflow:auto}.evidence:target{display:block}.evidence:target pre{display:block}.evidence:target{outline:2px solid #1f4e9e}
td.thumb{padding:1px;width:120px}td.thumb svg,.thumb svg{width:120px;height:80px;display:block}
ol.picks li{display:flex;gap:8px;align-items:flex-start;margin:4px 0}ol.picks .thumb{flex:none;width:120px}ol.picks .thumb:empty{display:none}.why-first{background:#eef4ff;border:1px solid #9bb5e0;padding:6px 10px}
table.small td,table.clusters td{overflow-wrap:break-word;word-break:break-word}#compounds td{overflow-wrap:break-word}#compounds td[data-v]{white-space:nowrap}
.table-scroll{overflow-x:auto;max-width:100%}#compounds td{font-size:12px}
.missing-plot{border:1px dashed #a11;padding:6px}.print-note{display:none;font-style:italic}
.structure{border:1px solid #bbb;padding:6px 12px;margin:10px 0}.structure .hists{grid-template-columns:1fr 2fr}
.pose{margin:4px 0}.pose-2d{width:100%;max-width:300px;height:auto;display:block;border:1px solid #eee}.pose-2d .res{stroke:#aaa;stroke-width:1}.pose-2d .lig{stroke-width:2.4;stroke-linecap:round}.pose-2d .res-label{font-size:7px;fill:#444;text-anchor:middle}
.pose-viewer.live .pose-static,.pose-viewer.live .pose-open{display:none}.pose-stage{position:relative;width:100%;max-width:300px;height:240px;border:1px solid #ccc}.pose-open{font:inherit;font-size:12px;margin:3px 0}.pose-note{font-size:11px;color:#444}
@media print{.table-scroll{overflow:visible}body{margin:0;font-size:11px;-webkit-print-color-adjust:exact;print-color-adjust:exact}.controls,.evidence-ids,.cp[data-panel^="other-"]{display:none}
#compounds tbody tr:nth-child(n+${PRINT_TABLE_ROWS + 1}){display:none}.card:nth-of-type(n+${PRINT_CARDS + 1}){display:none}
#compounds{table-layout:auto;width:100%}#compounds td{overflow-wrap:anywhere}#compounds td[data-v]{white-space:nowrap;overflow-wrap:normal}#compounds th,#compounds th button{white-space:normal;overflow-wrap:normal;hyphens:manual;text-align:left}#compounds th{vertical-align:bottom}#compounds td,#compounds th{font-size:7px;padding:1px 2px}td.thumb svg{width:44px;height:30px}td.thumb{width:46px}
table.small,table.clusters{table-layout:fixed;width:100%}table.small td,table.small th{font-size:9px}
.panels{grid-template-columns:1fr 1fr 1fr;gap:4px 6px}.card{padding:4px 6px;margin:6px 0}.cp{padding:2px 4px}.cp h4{font-size:10px}.cp h5,.cp p{font-size:8px}
table.kv th,table.kv td,table.list th,table.list td{font-size:8px;padding:1px 2px}.mol svg{width:200px;height:138px}svg.radar{width:160px;height:160px}
.plots,.grid2{grid-template-columns:1fr 1fr}h2{break-after:avoid}figure{break-inside:avoid}a{color:inherit;text-decoration:none}
.print-note{display:block;font-weight:bold;border:1px solid #333;padding:4px}
.pose-stage,.pose-open{display:none}.pose-viewer.live .pose-static{display:block}.pose-2d{max-width:200px}.pose-note,.interactions{font-size:7px}}
@page{size:A4;margin:12mm}`;

/** Where the title block ends: the printed copy's note on what it holds goes right after. */
export const PAGE_TITLE_END = "<!--title:end-->";

/** From the doctype to the title block (the seal box follows). */
export function renderPageStart(facts: RunFacts, scripts: readonly InlineScript[] = []): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Audit report ${escapeHtml(facts.run_id)}</title>
<meta http-equiv="Content-Security-Policy" content="${cspOf(scripts)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>${STYLE}</style></head><body>
<h1>Computational audit — ${escapeHtml(facts.project_id)}</h1>
<p>Run <code>${escapeHtml(facts.run_id)}</code> · ${facts.mode} · ${facts.compounds} compounds · inputs <code>${facts.inputs_sha256.slice(0, 16)}…</code> · policy ${escapeHtml(facts.plan.policy_version)}</p>${PAGE_TITLE_END}
`;
}

/** The module coverage table, the closing note, the table script and any further inline scripts. */
export function renderPageEnd(facts: RunFacts, scripts: readonly InlineScript[] = []): string {
  const modules = facts.plan.modules
    .map(
      (m) =>
        `<tr><td>${escapeHtml(m.module_id)}</td><td>${m.bucket}</td><td>${m.risk_channel}</td><td>${m.outcome}${
          m.reason ? `: ${m.reason}` : ""
        }</td><td>${escapeHtml(m.detail ?? "")}</td></tr>`,
    )
    .join("\n");
  return `<h2 id="coverage">Module coverage</h2>
<table class="small"><thead><tr><th>Module</th><th>Bucket</th><th>Risk channel</th><th>Outcome</th><th>Detail</th></tr></thead><tbody>
${modules}
</tbody></table>
<script>${TABLE_SCRIPT}</script>
${scripts.map((script) => `<script>${script.text}</script>`).join("\n")}
</body></html>
`;
}
