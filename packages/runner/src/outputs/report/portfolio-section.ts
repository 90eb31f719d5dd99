import { PROFILE_DESCRIPTIONS } from "@svc/science/decision";
import { channelStates } from "../build-results.ts";
import type { RunFacts } from "../run-facts.ts";
import { ALERT_FAMILIES, type CompoundView, RULE_NAMES } from "./compound-view.ts";
import { desirabilityOf } from "./desirability.ts";
import { anchorId, escapeHtml, formatShare } from "./format.ts";
import type { PortfolioStats } from "./portfolio-stats.ts";
import {
  evidenceOf,
  explainTop,
  FIRST_IN_LINE_CONFIDENCE,
  FIRST_IN_LINE_SCORE,
  firstInLine,
  formatScore,
  type RankingRule,
} from "./ranking.ts";

export interface PortfolioInputs {
  readonly facts: RunFacts;
  readonly stats: PortfolioStats;
  readonly ranking: RankingRule;
  /** The first ranked compounds, best first (at most TOP_PICKS). */
  readonly top: readonly CompoundView[];
  readonly carded: ReadonlySet<string>;
  /** Small structure drawings by candidate id (the first ranked compounds). */
  readonly thumbnails: ReadonlyMap<string, string>;
  readonly targets: {
    readonly header: readonly string[];
    readonly rows: readonly (readonly string[])[];
    readonly total: number;
  } | null;
}

export const TOP_PICKS = 10;

/** The top of the page: which compounds to send to the lab and why, and how much to trust it. */
export function renderPortfolioSection(input: PortfolioInputs): string {
  const profile = input.facts.profile;
  return `<section id="portfolio"><h2>Which compounds to send to the lab, and why</h2>
<p class="profile" id="profile"><b>Target product profile: ${escapeHtml(profile)}</b> (${escapeHtml(PROFILE_DESCRIPTIONS[profile])}; sources.json <code>profile</code>).</p>
<p class="rule"><b>Ordering rule.</b> ${escapeHtml(input.ranking.text)}</p>
${renderTopPicks(input)}
<div class="grid2">${renderClaim(input.facts)}${renderChannels(input.facts)}</div>
<div class="grid2">${renderPassRates(input.stats)}${renderContext(input)}</div>
</section>`;
}

function renderTopPicks({ top, carded, stats, thumbnails }: PortfolioInputs): string {
  const group = firstInLine(top, stats.compounds);
  const item = (view: CompoundView, rank: number) => {
    const score = desirabilityOf(view);
    const reasons: string[] = [];
    if (!view.parsed) reasons.push(`does not parse: ${view.parse_error}`);
    if (view.duplicate_of) reasons.push(`duplicate of ${view.duplicate_of}`);
    if (view.parsed) {
      reasons.push(`score ${formatScore(score.score)}, confidence ${score.confidence.toFixed(2)}`);
      const weak = score.terms
        .filter((term) => term.d < 0.5)
        .map((term) => `${term.label.toLowerCase()} ${term.d.toFixed(2)}`);
      if (weak.length) reasons.push(`weak: ${weak.join(", ")}`);
      reasons.push(evidenceOf(score));
      if (score.uncertain.length) reasons.push(`less certain: ${score.uncertain.join(", ")}`);
    }
    const label = escapeHtml(view.candidate_id) + (view.name ? ` (${escapeHtml(view.name)})` : "");
    const link = carded.has(view.candidate_id)
      ? `<a href="#${anchorId("card", view.candidate_id)}">${label}</a>`
      : label;
    const thumb = thumbnails.get(view.candidate_id);
    return `<li value="${rank}"><span class="thumb">${thumb ?? ""}</span><span>${link}: ${escapeHtml(reasons.join("; "))}</span></li>`;
  };
  // Numbered by rank in the whole order: a compound with a liability called positive is passed over
  // for first in line but keeps its place (issue 36 item 1).
  const rankOf = new Map(top.map((view, at) => [view, at + 1]));
  const items = group.map((view) => item(view, rankOf.get(view) ?? 0)).join("");
  const inGroup = new Set(group);
  const next = top
    .filter((view) => !inGroup.has(view))
    .map((view) => item(view, rankOf.get(view) ?? 0))
    .join("");
  const held = [
    stats.compounds - stats.parsed > 0 ? `${stats.compounds - stats.parsed} that do not parse` : "",
    stats.duplicates > 0 ? `${stats.duplicates} duplicating an earlier row (same parent InChIKey)` : "",
    stats.withUnspecifiedStereo > 0
      ? `${stats.withUnspecifiedStereo} with unspecified stereocentres (the tested material may be a mixture of stereoisomers)`
      : "",
    stats.saltsStripped > 0 ? `${stats.saltsStripped} salt(s) or mixture(s), parent kept` : "",
  ].filter((text) => text !== "");
  return `<p class="why-first" id="why-first">${escapeHtml(explainTop(top[0], top[1]))}</p>
<h3 id="first-in-line">First in line (${group.length} of ${stats.compounds})</h3>${
    group.length
      ? `<ol class="picks">${items}</ol>`
      : `<p>No compound reaches score ${FIRST_IN_LINE_SCORE} with confidence ${FIRST_IN_LINE_CONFIDENCE} and no liability called positive: none is put first.</p>`
  }${next ? `<h4>Next in line</h4><ol class="picks next">${next}</ol>` : ""}
<p>${held.length ? `To check before sending, of ${stats.compounds} compounds: ${escapeHtml(held.join("; "))}.` : `All ${stats.compounds} compounds parse; no duplicates.`}</p>`;
}

function renderClaim(facts: RunFacts): string {
  const c = facts.counts;
  const pct = c.required === 0 ? 100 : Math.round((c.required_executed / c.required) * 100);
  const meaning =
    c.claim_strength === "SUPPORTED"
      ? "SUPPORTED: every module the category requires ran and assessed at least 80% of what it should, so each conclusion rests on the full set of required evidence."
      : `HYPOTHESIS: ${c.claim_reasons.join("; ")}. The findings below are a hypothesis to test, not supported evidence: missing proof and work not done lower the claim; they are never averaged into a score.`;
  const missing = facts.plan.modules.filter((m) => m.bucket === "required" && m.outcome !== "executed");
  // Grouped by why each is missing, so the reader sees what to do: a newer build, or a staged file.
  const groups = new Map<string, string[]>();
  for (const m of missing) {
    const why =
      m.outcome === "failed"
        ? `failed${m.detail ? ` (${m.detail})` : ""}`
        : (m.detail ?? m.reason ?? m.outcome);
    groups.set(why, [...(groups.get(why) ?? []), m.module_id]);
  }
  const raise = missing.length
    ? `<p>What raises it to SUPPORTED: every required module running. Missing now:</p><ul>${[...groups]
        .map(
          ([why, ids]) =>
            `<li><b>${escapeHtml(why)}</b>: ${ids.map((id) => `<code>${escapeHtml(id)}</code>`).join(", ")}</li>`,
        )
        .join(
          "",
        )}</ul><p>"Not available in this build" means this version of the runner does not implement the module (a later build can); "missing_input" means a file the module needs was not staged in 01_sources.</p>`
    : "";
  return `<div class="panel"><h3>Claim strength: ${c.claim_strength}</h3>
<p><b>Coverage:</b> ${c.required_executed} of ${c.required} required modules (${pct}%).</p><p>${escapeHtml(meaning)}</p>${raise}</div>`;
}

function renderChannels(facts: RunFacts): string {
  const rows = channelStates(facts)
    .map(
      (state) =>
        `<tr class="${state.status}"><td>${escapeHtml(state.channel.replace(/_/g, " "))}</td><td>${
          state.status === "measured" ? "measured" : "<b>missing</b> — not low risk"
        }</td><td>${escapeHtml(state.modules_executed.join(", ") || "—")}</td><td>${escapeHtml(state.modules_missing.join(", ") || "—")}</td></tr>`,
    )
    .join("");
  return `<div class="panel"><h3>Risk channels</h3><table class="small"><thead><tr><th>Channel</th><th>Status</th><th>Modules run</th><th>Modules missing</th></tr></thead><tbody>${rows}</tbody></table>
<p>A missing channel has no executed module: it is shown as missing, never as low risk, and the translational risk index is not computed until all five are measured.</p></div>`;
}

function renderPassRates(stats: PortfolioStats): string {
  const bar = (part: number, whole: number) => {
    const share = whole === 0 ? 0 : part / whole;
    return `<span class="rate"><span style="width:${Math.round(share * 100)}%"></span></span>`;
  };
  const rules = RULE_NAMES.map((rule) => {
    const r = stats.rules[rule];
    return r.evaluated === 0
      ? `<tr><td>${rule}</td><td colspan="2">not available in this build</td></tr>`
      : `<tr><td>${rule}</td><td>${bar(r.passed, r.evaluated)}</td><td>${formatShare(r.passed, r.evaluated)} pass</td></tr>`;
  }).join("");
  const alerts = ALERT_FAMILIES.map((family) => {
    const a = stats.alerts[family];
    return a.evaluated === 0
      ? `<tr><td>${family}</td><td colspan="2">not available in this build (toxicity_profile did not run)</td></tr>`
      : `<tr><td>${family}</td><td>${bar(a.evaluated - a.flagged, a.evaluated)}</td><td>${formatShare(a.evaluated - a.flagged, a.evaluated)} free of alerts</td></tr>`;
  }).join("");
  return `<div class="panel"><h3>Pass rates (${stats.parsed} parsed compounds)</h3><table class="small rates"><tbody>${rules}${alerts}</tbody></table>
<p>An alert is a substructure worth a chemist's look, not a measured risk: published alert sets flag inactive compounds too.</p></div>`;
}

function renderContext({ facts, targets }: PortfolioInputs): string {
  const category = facts.policy.categories.find(
    (entry) => entry.category_id === facts.plan.category.category_id,
  );
  const context = Object.entries(facts.context)
    .map(
      ([key, value]) =>
        `<li><b>${escapeHtml(key.replace(/_/g, " "))}</b>: ${escapeHtml(typeof value === "string" ? value : JSON.stringify(value))}</li>`,
    )
    .join("");
  const targetTable = targets
    ? `<table class="small"><thead><tr>${targets.header.map((h) => `<th>${escapeHtml(h)}</th>`).join("")}</tr></thead><tbody>${targets.rows
        .map((row) => `<tr>${row.map((cell) => `<td>${escapeHtml(cell)}</td>`).join("")}</tr>`)
        .join(
          "",
        )}</tbody></table>${targets.total > targets.rows.length ? `<p>${targets.rows.length} of ${targets.total} targets shown; all are in 01_sources.</p>` : ""}`
    : "<p>No targets.csv was staged.</p>";
  return `<div class="panel"><h3>Category and context</h3>
<p><b>Category</b> <code>${escapeHtml(facts.plan.category.category_id)}</code> (${facts.plan.category.forced ? "forced by preset" : escapeHtml(facts.plan.category.rule)}).<br><b>Intent:</b> ${escapeHtml(category?.intent ?? "—")}</p>
${context ? `<ul>${context}</ul>` : "<p>No indication or context of use was staged in sources.json.</p>"}
<h4>Staged targets</h4>${targetTable}</div>`;
}
