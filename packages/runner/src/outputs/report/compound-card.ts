import { ALERT_FAMILIES, type CompoundView, RULE_NAMES } from "./compound-view.ts";
import { anchorId, escapeHtml, formatNumber } from "./format.ts";
import { renderRadar } from "./radar-plot.ts";

const SKIPPED_KEYS = new Set(["candidate_id", "evidence_id"]);
const MAX_LINES = 40;
// A card says each finding in words, bounded so the page and its printed copy stay bounded
// (README "Report": 25 cards within 80 pages) however long a module's lists are, e.g. 120
// candidate sites of metabolism; the whole finding is one evidence id away.
const MAX_LIST_ENTRIES = 6;
const MAX_LINE_CHARS = 400;

/** Intro above the cards: what an evidence id is and where it leads. */
export const CARDS_INTRO = `<p>Each card shows one compound: its depiction (atoms of matched structural alerts highlighted when the toxicity module ran), its bioavailability radar, and every module's finding in words. An <b>evidence id</b> (<code>EID-&lt;module&gt;-&lt;row&gt;</code>) names one module's finding for one compound; the same id is in <code>raw/&lt;module&gt;_raw.json</code> and <code>results/combined_unified_computational_outputs.json</code>, and each id below shows that finding as recorded when followed (no script: the page's CSS shows the targeted entry).</p>`;

/** One compound card; `depiction` is the (possibly highlighted) RDKit SVG or null. */
export function renderCard(view: CompoundView, rank: number, depiction: string | null): string {
  const id = escapeHtml(view.candidate_id);
  const title = `${rank}. ${id}${view.name ? ` — ${escapeHtml(view.name)}` : ""}`;
  const structure =
    depiction !== null
      ? `<div class="mol">${depiction}</div>`
      : `<div class="mol err">${view.parsed ? "depiction omitted (too large for the report)" : "no depiction"}</div>`;
  const identity = view.parsed
    ? `<p><b>Parent SMILES</b> <code>${escapeHtml(view.parent_smiles ?? "")}</code><br><b>Parent InChIKey</b> <code>${escapeHtml(
        view.parent_inchikey ?? "not computable",
      )}</code>${
        view.salt_stripped
          ? `<br>Salt or mixture: ${view.fragment_count} fragments in the input; the largest (the parent above) was kept and every property is the parent's.`
          : ""
      }${view.duplicate_of ? `<br><b>Duplicate of ${escapeHtml(view.duplicate_of)}</b> (same parent InChIKey).` : ""}</p>`
    : `<p class="err"><b>Does not parse:</b> ${escapeHtml(view.parse_error ?? "")}<br><code>${escapeHtml(view.input_smiles)}</code></p>`;
  return `<article class="card" id="${anchorId("card", view.candidate_id)}" data-id="${id}">
<h3>${title}</h3>
<div class="card-top">${structure}${view.parsed ? renderRadar(view.candidate_id, view.radar) : ""}<div class="card-facts">${identity}${summaryFacts(view)}</div></div>
${view.findings.map((finding) => renderFinding(finding.module_id, finding.evidence_id, finding.raw)).join("")}
</article>\n`;
}

function summaryFacts(view: CompoundView): string {
  if (!view.parsed) return "";
  const rules = RULE_NAMES.map((rule) => {
    const outcome = view.rules[rule];
    if (!("pass" in outcome)) return `<li>${rule}: ${escapeHtml(notAvailable(outcome.reason))}</li>`;
    return `<li class="${outcome.pass ? "pass" : "fail"}">${rule}: ${outcome.pass ? "pass" : "fail"}${
      outcome.violations.length > 0 ? ` — ${escapeHtml(outcome.violations.join("; "))}` : ""
    }</li>`;
  }).join("");
  const alerts = ALERT_FAMILIES.map((family) => {
    const hits = view.alerts[family];
    if (hits === null) return `<li>${family}: not available in this build</li>`;
    return `<li class="${hits.length ? "fail" : "pass"}">${family}: ${hits.length ? escapeHtml(hits.join(", ")) : "no match"}</li>`;
  }).join("");
  const egg = view.boiled_egg
    ? `GI absorption ${escapeHtml(view.boiled_egg.gi_absorption)}, BBB ${view.boiled_egg.bbb_permeant ? "permeant" : "not permeant"} (${escapeHtml(view.boiled_egg.region)})`
    : "not available in this build (admet_predictions did not run); the point on the BOILED-Egg plot shows where it falls";
  const props = view.props;
  const q = (label: string, value: { value: number | null }, digits = 2) =>
    `${label} ${value.value === null ? "n/a" : formatNumber(value.value, digits)}`;
  return `<p>${[q("MW", props.mw, 1), q("WLOGP", props.wlogp), q("TPSA", props.tpsa, 1), q("HBD", props.hbd, 0), q("HBA", props.hba, 0), q("RotB", props.rotatable_bonds, 0), q("Fsp3", props.fsp3), q("QED", props.qed), q("SA", props.sa_score, 1), q("log S", props.log_s), q("log D7.4", props.logd74)].join(" · ")}</p>
<p><b>BOILED-Egg:</b> ${egg}</p><ul class="facts">${rules}${alerts}</ul>`;
}

function renderFinding(moduleId: string, evidenceId: string, raw: Readonly<Record<string, unknown>>): string {
  const lines = describe(raw)
    .slice(0, MAX_LINES)
    .map((line) => (line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS - 1)}…` : line));
  return `<section class="finding"><h4>${escapeHtml(moduleId)} · <a href="#${escapeHtml(evidenceId)}">${escapeHtml(evidenceId)}</a></h4>
<ul>${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join("")}</ul>
<div class="evidence" id="${escapeHtml(evidenceId)}"><a href="#${escapeHtml(evidenceId)}">${escapeHtml(evidenceId)}</a> as recorded in raw/${escapeHtml(moduleId)}_raw.json (follow the id to show it)<pre>${escapeHtml(JSON.stringify(raw, null, 1))}</pre></div></section>`;
}

/** A finding in words: "key: value", rules as pass/fail with their violations. */
function describe(raw: Readonly<Record<string, unknown>>, prefix = ""): string[] {
  const lines: string[] = [];
  for (const [key, value] of Object.entries(raw)) {
    if (SKIPPED_KEYS.has(key)) continue;
    const name = `${prefix}${key.replace(/_/g, " ")}`;
    if (value === null || value === undefined) lines.push(`${name}: —`);
    else if (Array.isArray(value)) lines.push(`${name}: ${value.length === 0 ? "none" : listed(value)}`);
    else if (typeof value === "object") {
      const record = value as Record<string, unknown>;
      if (typeof record.pass === "boolean") {
        const violations = Array.isArray(record.violations) ? record.violations.map(String) : [];
        lines.push(
          `${name}: ${record.pass ? "pass" : "fail"}${violations.length ? ` (${violations.join("; ")})` : ""}`,
        );
      } else if (prefix === "") lines.push(...describe(record, `${name} · `));
      else lines.push(`${name}: ${JSON.stringify(record)}`);
    } else lines.push(`${name}: ${typeof value === "number" ? formatNumber(value, 3) : String(value)}`);
  }
  return lines;
}

/** "not available in this build", with the module's reason when it says more. */
function notAvailable(reason: string): string {
  return reason.startsWith("not available in this build")
    ? reason
    : `not available in this build — ${reason}`;
}

/** The first entries of a list, and how many more the evidence holds. */
function listed(values: readonly unknown[]): string {
  const shown = values
    .slice(0, MAX_LIST_ENTRIES)
    .map((entry) => (typeof entry === "object" ? JSON.stringify(entry) : String(entry)))
    .join(", ");
  const more = values.length - MAX_LIST_ENTRIES;
  return more > 0 ? `${shown} … and ${more} more (the evidence id has all ${values.length})` : shown;
}
