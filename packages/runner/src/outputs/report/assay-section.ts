import { runPath } from "@svc/core";
import type { SarSummary } from "@svc/science/sar";
import type { YScrambleSummary } from "@svc/science/yscramble";
import { escapeHtml, formatNumber } from "./format.ts";

const SAR = "sar_explorer";
const Y_SCRAMBLE = "y_scramble_validation";
/** Rows per table: the raw outputs hold the rest (each list says how many more). */
const SHOWN = 10;

/**
 * The assay section (issue 11, assay-driven modules): for each staged assay, whether its
 * structure–activity signal survives y-scrambling, then the scaffold series, the recurring matched-pair
 * transformations and the steepest activity cliffs. Empty when neither module ran (no assays.csv),
 * so the ligand-only report is unchanged. Every value is the modules' own summary, bounded here.
 */
export function renderAssaySection(summaries: ReadonlyMap<string, unknown>): string {
  const sar = summaries.get(SAR) as SarSummary | undefined;
  const scramble = summaries.get(Y_SCRAMBLE) as YScrambleSummary | undefined;
  if (sar === undefined && scramble === undefined) return "";
  const parts = [`<section id="assays"><h2>Assays: is there a structure–activity signal, and where</h2>`];
  if (scramble !== undefined) parts.push(renderScramble(scramble));
  if (sar !== undefined) parts.push(renderSar(sar));
  parts.push(
    `<p>Full lists, every pair and each compound's out-of-fold prediction: <code>${runPath("moduleRaw", { module: SAR })}</code> and <code>${runPath("moduleRaw", { module: Y_SCRAMBLE })}</code>.</p></section>`,
  );
  return parts.join("\n");
}

function renderScramble(summary: YScrambleSummary): string {
  const rows = Object.entries(summary.assays).map(([assay, result]) => {
    if (result.status !== "assessed")
      return `<tr><td>${escapeHtml(assay)}</td><td>${result.compounds}</td><td colspan="4">not assessed: ${escapeHtml(result.reason)}</td></tr>`;
    const verdict =
      result.verdict === "pass"
        ? "pass: the real model beats every scramble"
        : "fail: a scrambled model did as well";
    return `<tr><td>${escapeHtml(assay)}</td><td>${result.compounds}</td><td>${formatNumber(result.q2, 3)}</td><td>${formatNumber(result.scrambles.max_q2, 3)} (${result.scrambles.count} scrambles)</td><td>${formatNumber(result.p_value, 4)}</td><td>${verdict}</td></tr>`;
  });
  return `<div class="panel"><h3>y-scrambling (${Y_SCRAMBLE})</h3>
<p>A ridge model on Morgan fingerprints predicts each assay in repeated cross-validation (q²); the same pipeline is refitted with the activities shuffled. A signal is real only when the real q² beats every shuffled one (Rücker, Rücker &amp; Meringer 2007).</p>
<table class="small"><thead><tr><th>Assay</th><th>Compounds</th><th>q²</th><th>Best scrambled q²</th><th>p</th><th>Verdict</th></tr></thead><tbody>${rows.join("")}</tbody></table></div>`;
}

function renderSar(summary: SarSummary): string {
  const series = summary.scaffold_series.top.slice(0, SHOWN).map((entry) => {
    const activity = Object.entries(entry.activity)
      .map(
        ([assay, a]) =>
          `${escapeHtml(assay)}: p ${formatNumber(a.min_p, 2)}–${formatNumber(a.max_p, 2)} (${a.measured} measured)`,
      )
      .join("; ");
    return `<tr><td><code>${escapeHtml(entry.murcko_scaffold || "(acyclic)")}</code></td><td>${entry.compounds}</td><td>${activity}</td></tr>`;
  });
  const seriesMore = summary.scaffold_series.total - series.length;
  const perAssay = summary.per_assay.map((assay) => {
    const transformations = assay.transformations.top
      .slice(0, SHOWN)
      .map(
        (t) =>
          `<tr><td><code>${escapeHtml(t.transformation)}</code></td><td>${t.pairs}</td><td>${formatNumber(t.mean_delta_p, 2)}</td><td>${formatNumber(t.min_delta_p, 2)} to ${formatNumber(t.max_delta_p, 2)}</td></tr>`,
      );
    const cliffs = assay.activity_cliffs.top
      .slice(0, SHOWN)
      .map(
        (c) =>
          `<tr><td>${escapeHtml(c.a_id)} / ${escapeHtml(c.b_id)}</td><td>${formatNumber(c.a_p, 2)} / ${formatNumber(c.b_p, 2)}</td><td>${formatNumber(c.tanimoto, 2)}</td><td>${c.sali === null ? "identical fingerprints" : formatNumber(c.sali, 1)}</td></tr>`,
      );
    return `<h4>${escapeHtml(assay.assay_id)}: ${assay.compounds_measured} compounds measured, ${assay.matched_pairs.total} matched pairs</h4>
<div class="grid2"><div><table class="small"><thead><tr><th>Transformation (matched pairs)</th><th>Pairs</th><th>Mean Δp</th><th>Range</th></tr></thead><tbody>${transformations.join("")}</tbody></table>${more(assay.transformations.total, transformations.length)}</div>
<div><table class="small"><thead><tr><th>Activity cliff</th><th>p</th><th>Tanimoto</th><th>SALI</th></tr></thead><tbody>${cliffs.join("")}</tbody></table>${more(assay.activity_cliffs.pairs_scored, cliffs.length, "scored pairs shown, steepest first")}</div></div>`;
  });
  return `<div class="panel"><h3>Structure–activity (${SAR})</h3>
<p>Bemis–Murcko scaffold series, single-cut matched molecular pairs (Hussain &amp; Rea 2010) and activity cliffs ranked by SALI = |Δp| / (1 − Tanimoto) (Guha &amp; Van Drie 2008). ${summary.with_activities} of ${summary.compounds} compounds have a measured activity${summary.pairing.left_out > 0 ? `; pairs use the first ${summary.pairing.considered} (${summary.pairing.left_out} left out)` : ""}. R-groups: ${escapeHtml(summary.r_groups.reason)}</p>
<table class="small"><thead><tr><th>Scaffold series</th><th>Compounds</th><th>Activity range</th></tr></thead><tbody>${series.join("")}</tbody></table>${seriesMore > 0 ? `<p>${seriesMore} more series in the raw output.</p>` : ""}
${perAssay.join("\n")}</div>`;
}

function more(total: number, shown: number, what = "shown"): string {
  return total > shown ? `<p>${shown} of ${total} ${what}; the rest are in the raw output.</p>` : "";
}
