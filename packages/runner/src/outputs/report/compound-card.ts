import { RUN_FILES } from "@svc/core";
import { RADAR_RANGES, RULE_SETS } from "@svc/science/admet";
import { CNS_MPO_THRESHOLD } from "@svc/science/cns";
import { SOLUBILITY_TRAINING_DATA, type SolubilityClass, solubilityClass } from "@svc/science/solubility";
import type { Neighbour } from "./butina-clusters.ts";
import {
  CALL_WORDS,
  type CardFindings,
  type CompoundView,
  findingOf,
  LIABILITY_MODELS,
  MODEL_CALL_LABELS,
  RULE_NAMES,
} from "./compound-view.ts";
import { CNS_LOGD_RAMP, desirabilityOf } from "./desirability.ts";
import { type CardDocking, renderDockingPanel } from "./docking-panel.ts";
import { flattenFinding, unitOf } from "./finding-columns.ts";
import { anchorId, escapeHtml, escapeText, formatBound, formatNumber } from "./format.ts";
import { renderRadar } from "./radar-plot.ts";
import { formatScore } from "./ranking.ts";

// A card is a set of designed panels in the order SwissADME's users read (issue 27 item 1):
// identity, physicochemistry, lipophilicity, solubility, pharmacokinetics, drug-likeness,
// medicinal chemistry, toxicity, synthesis and metabolism, ranking, similar compounds, then any
// module this file does not know yet as small tables ("Other findings"), then the evidence ids.
// Every value carries its unit and method; a traffic light where a published threshold exists;
// an out-of-domain value is greyed with the reason. Lists are bounded; the raw finding is one
// evidence id away.

/** Modules with a designed place on the card; any other module's finding goes to "Other findings". */
export const KNOWN_MODULES = new Set([
  "molecular_logic",
  "kinase_drug_likeness",
  "admet_predictions",
  "solubility_assessment",
  "toxicity_profile",
  "clinical_precedent_prior",
  "synthesis_audit",
  "manufacturability_audit",
  "metabolite_prediction",
  "uncertainty_quantification",
  "wetlab_priority_and_readiness_determiner",
  // Modules added in the same round as this card: their values join the panel they belong to, in
  // the generic small-table form, whatever keys they settle on.
  "cyp_assessment",
  "gcn_toxicity",
  // CNS MPO (issue 40 item 4): one line in the pharmacokinetics panel; its terms are in the evidence.
  "cns_penetration",
  // Its values come from the structure stage's file, in the Docking panel (docking-panel.ts).
  "molecular_docking",
]);

/** Rows shown of a list (metabolism sites, other findings' values); the evidence has the rest. */
const MAX_ROWS = 8;
const MAX_CELL_CHARS = 160;
/** Values of one unknown module's finding shown on the card. */
const MAX_OTHER_ROWS = 24;
const GENERIC_SKIPPED = new Set(["evidence_id", "status", "reason"]);
/**
 * Values a module copies from another that the card already shows in its own panel: in an "Other
 * findings" panel they would be said twice (target_biology_risk carries toxicity_profile's hERG
 * reading, which the Model calls panel shows).
 */
const SHOWN_ELSEWHERE: Readonly<Record<string, readonly string[]>> = { target_biology_risk: ["herg."] };

/** Intro above the cards: what an evidence id is and where it leads. */
export const CARDS_INTRO = `<p>Each card shows one compound in panels: identity (depiction with the atoms of matched structural alerts highlighted), physicochemistry, lipophilicity, solubility, pharmacokinetics, drug-likeness with the bioavailability radar, medicinal chemistry, toxicity, model calls (hERG, DILI, Ames and Tox21 from toxicity_profile, P-gp and Caco-2 from admet_predictions, the five CYPs from cyp_assessment, ClinTox from clinical_precedent_prior: yes, no or uncertain by one rule, positive or negative only when the probability and the 90% conformal set agree; unknown out of a model's domain), synthesis and metabolism, its ranking terms, similar compounds in the portfolio, its docking into each staged structure (score, ligand efficiency, pose checks, interactions and the pose in the pocket: in 3D on screen, projected in print), and any other module's values. Every value has its unit and method; <span class="light g">green</span>, <span class="light a">amber</span> and <span class="light r">red</span> mark a published threshold met, borderline or missed; a <span class="ood">greyed</span> value is outside its model's applicability domain. An <b>evidence id</b> (<code>EID-&lt;module&gt;-&lt;row&gt;</code>) names one module's finding for one compound; the same id is in <code>${escapeText(RUN_FILES.moduleRaw)}</code> and <code>${RUN_FILES.combined}</code>, and each id below shows that finding as recorded when followed (no script: the page's CSS shows the targeted entry).</p>`;

export interface CardExtras {
  readonly depiction: string | null;
  readonly cluster: { readonly id: number; readonly size: number } | null;
  readonly neighbours: readonly Neighbour[] | null;
  /** Compounds ranked at or above this have a card here (neighbours link to it). */
  readonly cardedRanks: number;
  /** The compound's docking per structure with its pose and pocket (issue 25 item 10); none: no panel. */
  readonly docking?: readonly CardDocking[];
}

type Raw = Readonly<Record<string, unknown>>;
/** A module's finding for the card's compound, typed as science writes it (`findingOf`). */
type FindingOf = <Id extends keyof CardFindings>(id: Id) => Partial<CardFindings[Id]> | null;
type Light = "g" | "a" | "r" | null;

interface Row {
  readonly label: string;
  readonly value: string;
  readonly method?: string;
  readonly light?: Light;
  /** Out of the model's domain: the value is greyed with this reason. */
  readonly ood?: string | null;
}

/** One compound card. */
export function renderCard(view: CompoundView, rank: number, extras: CardExtras): string {
  const id = escapeHtml(view.candidate_id);
  const title = `${rank}. ${id}${view.name ? ` — ${escapeHtml(view.name)}` : ""}`;
  const raw: FindingOf = (moduleId) => findingOf(view, moduleId);
  const structure =
    extras.depiction !== null
      ? `<div class="mol">${extras.depiction}</div>`
      : `<div class="mol err">${view.parsed ? "depiction omitted (too large for the report)" : "no depiction"}</div>`;
  const panels = view.parsed
    ? [
        identityPanel(view, raw),
        physchemPanel(view, raw),
        lipophilicityPanel(view, raw),
        solubilityPanel(view, raw),
        pharmacokineticsPanel(view, raw),
        drugLikenessPanel(view, raw),
        medchemPanel(view, raw),
        toxicityPanel(view, raw),
        modelCallsPanel(view, raw),
        synthesisPanel(raw),
        rankingPanel(view),
        similarPanel(extras),
        renderDockingPanel(view.candidate_id, extras.docking ?? []),
        ...otherPanels(view),
      ]
    : [
        `<section class="cp" data-panel="identity"><h4>Identity</h4><p class="err"><b>Does not parse:</b> ${escapeHtml(view.parse_error ?? "")}</p><p><code>${escapeHtml(view.input_smiles)}</code></p>${customerRows(view)}</section>`,
        ...otherPanels(view),
      ];
  return `<article class="card" id="${anchorId("card", view.candidate_id)}" data-id="${id}">
<h3>${title}</h3>
<div class="card-top">${structure}${view.parsed ? renderRadar(view.candidate_id, view.radar) : ""}</div>
<div class="panels">${panels.filter((panel) => panel !== "").join("\n")}</div>
${evidencePanel(view)}
</article>\n`;
}

function panel(key: string, title: string, rows: readonly Row[], note = ""): string {
  if (rows.length === 0 && note === "") return "";
  return `<section class="cp" data-panel="${key}"><h4>${escapeHtml(title)}</h4>${rows.length ? table(rows) : ""}${note}</section>`;
}

function table(rows: readonly Row[]): string {
  const body = rows
    .map((row) => {
      // A greyed (out-of-domain) value gets no traffic light: its threshold verdict is not trusted.
      const light =
        row.light && !row.ood
          ? `<span class="light ${row.light}" title="${lightWord(row.light)}"></span>`
          : "";
      const value = row.ood
        ? `<span class="ood" title="${escapeHtml(row.ood)}">${escapeHtml(row.value)}</span><br><small class="ood">out of domain: ${escapeHtml(row.ood)}</small>`
        : escapeHtml(row.value);
      return `<tr><th>${escapeHtml(row.label)}</th><td>${light}${value}${
        row.method ? `<br><small>${escapeHtml(row.method)}</small>` : ""
      }</td></tr>`;
    })
    .join("");
  return `<table class="kv"><tbody>${body}</tbody></table>`;
}

function lightWord(light: Exclude<Light, null>): string {
  return light === "g" ? "meets the threshold" : light === "a" ? "borderline" : "misses the threshold";
}

/** ≤ limit green, else red (a published upper limit). */
/**
 * A descriptor's light and method text from the published rule that owns its limit (science's
 * RULE_SETS, issue 41 item 5: the card never restates a threshold), e.g. "Lipinski ≤ 500".
 */
function ruleLimit<Rule extends "lipinski" | "ghose" | "veber">(
  rule: Rule,
  key: (typeof RULE_SETS)[Rule]["limits"][number][0],
  value: number | null,
): Pick<Row, "light" | "method"> {
  const limits: readonly (readonly [string, string, number | null, number | null])[] = RULE_SETS[rule].limits;
  const [, , min, max] = limits.find(([descriptor]) => descriptor === key) ?? [key, key, null, null];
  const name = `${rule[0]?.toUpperCase()}${rule.slice(1)}`;
  const within = value === null ? null : (min === null || value >= min) && (max === null || value <= max);
  return {
    light: within === null ? null : within ? "g" : "r",
    method: min === null ? `${name} ≤ ${max}` : max === null ? `${name} ≥ ${min}` : `${name} ${min}–${max}`,
  };
}

function n(value: unknown, digits = 2): string {
  return typeof value === "number" ? formatNumber(value, digits) : "—";
}

function num(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

function clip(text: string): string {
  return text.length > MAX_CELL_CHARS ? `${text.slice(0, MAX_CELL_CHARS - 1)}…` : text;
}

function customerRows(view: CompoundView): string {
  const entries = Object.entries(view.metadata);
  if (entries.length === 0) return "";
  return `<h5>Your columns</h5>${table(entries.map(([key, value]) => ({ label: key, value: clip(value || "—") })))}`;
}

function identityPanel(view: CompoundView, raw: FindingOf): string {
  const logic = raw("molecular_logic");
  const stripped = logic?.stripped_fragments ?? [];
  const rows: Row[] = [
    { label: "Parent SMILES", value: view.parent_smiles ?? "—" },
    { label: "Parent InChIKey", value: view.parent_inchikey ?? "not computable" },
  ];
  rows.push({
    label: "Stripped",
    value: view.salt_stripped
      ? `${view.fragment_count} fragments in the input; the largest organic one kept${stripped.length ? ` (removed: ${stripped.join(", ")})` : ""}; every property is the parent's`
      : "nothing (single component)",
  });
  if (view.duplicate_of)
    rows.push({ label: "Duplicate of", value: `${view.duplicate_of} (same parent InChIKey)`, light: "r" });
  if (view.permanent_charge) rows.push({ label: "Charge", value: "permanently charged", light: "r" });
  const stereo = num(logic?.unspecified_stereo_centers);
  if (stereo !== null && stereo > 0)
    rows.push({ label: "Stereo", value: `${stereo} unspecified stereocentre(s)`, light: "a" });
  return panel("identity", "Identity", rows, customerRows(view));
}

function physchemPanel(view: CompoundView, raw: FindingOf): string {
  const p = view.props;
  const admet = raw("admet_predictions");
  const rows: Row[] = [
    {
      label: "MW",
      value: `${n(p.mw.value, 2)} g/mol`,
      ...ruleLimit("lipinski", "mw", p.mw.value),
    },
  ];
  if (num(admet?.heavy_atoms) !== null) rows.push({ label: "Heavy atoms", value: n(admet?.heavy_atoms, 0) });
  rows.push(
    {
      label: "TPSA",
      value: `${n(p.tpsa.value, 1)} Å²`,
      ...ruleLimit("veber", "tpsa", p.tpsa.value),
      method: `Ertl (N, O); ${ruleLimit("veber", "tpsa", null).method}`,
    },
    {
      label: "TPSA (N, O, S, P)",
      value: `${n(p.tpsa_sp.value, 1)} Å²`,
      method: "Ertl with S and P (BOILED-Egg)",
    },
    {
      label: "Rotatable bonds",
      value: n(p.rotatable_bonds.value, 0),
      ...ruleLimit("veber", "rotatable_bonds", p.rotatable_bonds.value),
    },
    {
      label: "H-bond donors",
      value: n(p.hbd.value, 0),
      ...ruleLimit("lipinski", "hbd", p.hbd.value),
    },
    {
      label: "H-bond acceptors",
      value: n(p.hba.value, 0),
      ...ruleLimit("lipinski", "hba", p.hba.value),
    },
    { label: "Aromatic rings", value: n(p.aromatic_rings.value, 0) },
    {
      label: "Fsp3",
      value: n(p.fsp3.value, 2),
      light: p.fsp3.value === null ? null : p.fsp3.value >= RADAR_RANGES.insatu[0] ? "g" : "a",
      method: `radar INSATU ≥ ${RADAR_RANGES.insatu[0]}`,
    },
  );
  return panel("physchem", "Physicochemistry", rows);
}

function lipophilicityPanel(view: CompoundView, raw: FindingOf): string {
  const p = view.props;
  const logd = raw("admet_predictions")?.logd74 ?? null;
  const rows: Row[] = [
    {
      label: "WLOGP",
      value: n(p.wlogp.value),
      ...ruleLimit("lipinski", "wlogp", p.wlogp.value),
      method: `Wildman–Crippen 1999; ${ruleLimit("lipinski", "wlogp", null).method}`,
    },
  ];
  // Out of the model's domain there is no value to show (issue 24 item 1), only why.
  if (p.logd74.value === null && view.domain.logd74 === false)
    rows.push({
      label: "log D7.4",
      value: "—",
      method: `${logd?.model ?? "model"}: no value out of its domain`,
      ood: `nearest training compound at Tanimoto ${n(logd?.nearest_tanimoto)}`,
    });
  if (p.logd74.value !== null)
    rows.push({
      label: "log D7.4",
      value: n(p.logd74.value),
      // Wager's CNS MPO ClogD function (science's CNS_MPO_COMPONENTS): desirability 1, partial, 0
      light: p.logd74.value <= CNS_LOGD_RAMP.good ? "g" : p.logd74.value < CNS_LOGD_RAMP.bad ? "a" : "r",
      method: `${logd?.model ?? "model"}; nearest training Tanimoto ${n(logd?.nearest_tanimoto)}; Wager CNS MPO 1 at ≤ ${formatBound(CNS_LOGD_RAMP.good)}, 0 at ≥ ${formatBound(CNS_LOGD_RAMP.bad)}`,
      ood:
        view.domain.logd74 === false
          ? `nearest training compound at Tanimoto ${n(logd?.nearest_tanimoto)}`
          : null,
    });
  return panel("lipophilicity", "Lipophilicity", rows);
}

/**
 * The light of each of SwissADME's log S classes (science's solubilityClass owns the bounds): soluble
 * or better is green, moderately soluble amber, poorly soluble or insoluble red.
 */
const SOLUBILITY_CLASS_LIGHT: Readonly<Record<SolubilityClass, "g" | "a" | "r">> = {
  highly: "g",
  very: "g",
  soluble: "g",
  moderately: "a",
  poorly: "r",
  insoluble: "r",
};

function solubilityPanel(view: CompoundView, raw: FindingOf): string {
  const sol = raw("solubility_assessment");
  if (sol === null)
    return panel("solubility", "Solubility", [], `<p class="na-note">solubility_assessment did not run.</p>`);
  const uq = raw("uncertainty_quantification")?.estimates?.["solubility_assessment.log_s"];
  const interval = uq?.interval_90 ? ` (90% interval ${uq.interval_90.map((v) => n(v)).join(" to ")})` : "";
  const logs = view.props.log_s.value;
  const rows: Row[] = [
    {
      label: "log S",
      value: `${n(logs)} log(mol/L)${interval}`,
      light: logs === null ? null : SOLUBILITY_CLASS_LIGHT[solubilityClass(logs)],
      method: `${sol.model ?? "solubility model"} (scaffold-validated, trained on ${SOLUBILITY_TRAINING_DATA})`,
      ood:
        view.domain.log_s === false
          ? "descriptors outside the training set's range or far from its compounds"
          : null,
    },
    {
      label: "Class",
      value: sol.solubility_class ?? "—",
      method: "SwissADME's classes (Daina, Michielin & Zoete 2017)",
    },
  ];
  for (const [model, value] of Object.entries(sol.estimates ?? {}))
    if (model !== sol.model)
      rows.push({
        label: model.replace(/_/g, " "),
        value: `${n(value)} log(mol/L)`,
        method: "other estimate",
      });
  return panel("solubility", "Solubility", rows);
}

function pharmacokineticsPanel(view: CompoundView, raw: FindingOf): string {
  const admet = raw("admet_predictions");
  const egg = view.boiled_egg;
  const rows: Row[] = [];
  if (egg) {
    rows.push(
      {
        label: "GI absorption",
        value: egg.gi_absorption,
        light: egg.gi_absorption === "high" ? "g" : "r",
        method: `BOILED-Egg (Daina & Zoete 2016), ${egg.region} region${egg.veto ? `: ${egg.veto}` : ""}; passive permeation only`,
      },
      {
        label: "BBB permeant",
        value: egg.bbb_permeant ? "yes" : "no",
        method: egg.veto ? `BOILED-Egg yolk: ${egg.veto}` : "BOILED-Egg yolk",
      },
    );
  }
  if (num(admet?.log_kp_cm_s) !== null)
    rows.push({
      label: "Skin permeation log Kp",
      value: `${n(admet?.log_kp_cm_s)} log(cm/s)`,
      method: "Potts & Guy 1992",
    });
  const mpo = raw("cns_penetration")?.cns_mpo ?? null;
  if (mpo !== null) {
    const range = mpo.score_range.map((v) => n(v, 2)).join("–");
    rows.push({
      label: "CNS MPO",
      value: `${range} of 6 (${n(mpo.score_known, 2)} over the ${n(mpo.max_known, 0)} components known)`,
      method: `Wager 2010; ≥ ${CNS_MPO_THRESHOLD} ${mpo.meets_threshold === true ? "met" : mpo.meets_threshold === false ? "not met" : "undetermined (pKa not computed)"}`,
      light: mpo.meets_threshold === true ? "g" : mpo.meets_threshold === false ? "r" : "a",
    });
  }
  // P-gp, Caco-2 and the CYP isoforms are in the model calls panel, one line each (issue 37 item 5).
  return panel(
    "pharmacokinetics",
    "Pharmacokinetics",
    rows,
    egg ? "" : `<p class="na-note">admet_predictions did not run: no BOILED-Egg class.</p>`,
  );
}

function drugLikenessPanel(view: CompoundView, raw: FindingOf): string {
  const admet = raw("admet_predictions");
  const rows: Row[] = RULE_NAMES.filter((rule) => rule !== "lead_likeness").map((rule) => {
    const outcome = view.rules[rule];
    if (!("pass" in outcome)) return { label: rule, value: `not evaluated: ${outcome.reason}` };
    return {
      label: rule,
      value: outcome.pass ? "pass" : `fail: ${outcome.violations.join("; ")}`,
      light: outcome.pass ? "g" : "r",
    };
  });
  if (num(admet?.bioavailability_score) !== null)
    rows.push({
      label: "Bioavailability score",
      value: n(admet?.bioavailability_score),
      light: (num(admet?.bioavailability_score) ?? 0) >= 0.55 ? "g" : "a",
      method: "Abbott (Martin 2005)",
    });
  if (view.props.qed.value !== null)
    rows.push({
      label: "QED",
      value: n(view.props.qed.value),
      light: view.props.qed.value >= 0.5 ? "g" : "a",
      method: "Bickerton 2012, mean weights",
    });
  return panel("drug-likeness", "Drug-likeness", rows);
}

function medchemPanel(view: CompoundView, raw: FindingOf): string {
  const rows: Row[] = (["pains", "brenk", "nibr"] as const).map((family) => {
    const hits = view.alerts[family];
    const label = family === "pains" ? "PAINS" : family === "brenk" ? "Brenk" : "NIBR";
    if (hits === null) return { label, value: "not screened (toxicity_profile did not run)" };
    return { label, value: hits.length ? clip(hits.join(", ")) : "no match", light: hits.length ? "r" : "g" };
  });
  const lead = view.rules.lead_likeness;
  if ("pass" in lead)
    rows.push({
      label: "Lead-likeness",
      value: lead.pass ? "pass" : `fail: ${lead.violations.join("; ")}`,
      light: lead.pass ? "g" : "a",
      method: "Teague 1999",
    });
  const sa = view.props.sa_score.value;
  if (sa !== null)
    rows.push({
      label: "SA score",
      value: `${n(sa, 2)} (1 easy – 10 hard)`,
      light: sa <= 4 ? "g" : sa <= 6 ? "a" : "r",
      method: "Ertl & Schuffenhauer 2009",
    });
  const qedAlerts = raw("toxicity_profile")?.qed_alerts ?? [];
  if (qedAlerts.length)
    rows.push({
      label: "QED alerts",
      value: `${qedAlerts.length} matched`,
      method: "Bickerton 2012 unwanted-group SMARTS",
    });
  return panel("medchem", "Medicinal chemistry", rows);
}

function toxicityPanel(view: CompoundView, raw: FindingOf): string {
  const tox = raw("toxicity_profile")?.tox21_fingerprint_model ?? null;
  const prior = raw("clinical_precedent_prior");
  const rows: Row[] = [];
  const ood = (inDomain: unknown, tanimoto: unknown) =>
    inDomain === false ? `nearest training compound at Tanimoto ${n(tanimoto)}` : null;
  if (tox) {
    for (const [assay, p] of Object.entries(tox.probabilities)) {
      const value = num(p);
      rows.push({
        label: `Tox21 ${assay}`,
        value: `p(active) ${n(value)}`,
        light: value === null ? null : value >= 0.5 ? "r" : value >= 0.3 ? "a" : "g",
        ood: ood(tox.in_domain, tox.max_tanimoto),
      });
    }
  }
  if (num(prior?.ct_tox_probability) !== null)
    rows.push({
      label: "ClinTox trial toxicity",
      value: `p ${n(prior?.ct_tox_probability)}`,
      light: (num(prior?.ct_tox_probability) ?? 0) >= 0.5 ? "r" : "g",
      method: prior?.ct_tox_model ?? "",
      ood: ood(prior?.ct_tox_in_domain, prior?.ct_tox_max_tanimoto),
    });
  rows.push(...genericRows(view, "gcn_toxicity"));
  const note = tox
    ? `<p class="na-note">Tox21: ${escapeHtml(tox.model ?? "model")}, probability of activity per assay (≥ 0.5 red).</p>`
    : `<p class="na-note">No toxicity model ran.</p>`;
  const drugs = prior?.nearest_approved_drugs ?? [];
  const precedent = drugs.length
    ? `<h5>Nearest approved drugs (ClinTox)</h5><table class="list"><thead><tr><th>SMILES</th><th>Tanimoto</th></tr></thead><tbody>${drugs
        .slice(0, 3)
        .map((d) => `<tr><td><code>${escapeHtml(clip(d.smiles))}</code></td><td>${n(d.tanimoto)}</td></tr>`)
        .join("")}</tbody></table>`
    : "";
  return panel("toxicity", "Toxicity", rows, note + precedent);
}

/**
 * Every liability and PK model's call at one glance (issue 37 item 5), as SwissADME and ADMETlab
 * show them: yes / no / uncertain with the probability (the one call rule of science's
 * classifier-call.ts), "unknown" with the reason out of domain or not run: never a silent gap.
 */
function modelCallsPanel(view: CompoundView, raw: FindingOf): string {
  const labels = MODEL_CALL_LABELS;
  const rows: Row[] = LIABILITY_MODELS.map((id) => {
    const model = view.liabilities.models[id];
    if (model.status !== "in_domain")
      return {
        label: labels[id] ?? id,
        value: "unknown",
        light: "a" as Light,
        ood: clip(model.status === "out_of_domain" ? model.reason : `not run: ${model.reason}`),
      };
    return {
      label: labels[id] ?? id,
      value: `${CALL_WORDS[model.call]} (p ${model.probability.toFixed(2)})`,
      light: (model.call === "positive" ? "r" : model.call === "uncertain" ? "a" : "g") as Light,
    };
  });
  const ct = view.liabilities.ct_tox;
  rows.push(
    ct === null || !ct.in_domain || ct.probability === null
      ? {
          label: "ClinTox trial toxicity",
          value: "unknown",
          method: "clinical_precedent_prior",
          light: "a",
          ood: ct === null ? "did not run" : "out of domain",
        }
      : {
          label: "ClinTox trial toxicity",
          value: `${ct.probability >= 0.5 ? "yes" : "no"} (p ${ct.probability.toFixed(2)})`,
          method: "clinical_precedent_prior (probability at 0.5; no conformal set)",
          light: ct.probability >= 0.5 ? "r" : "g",
        },
  );
  const tox21 = view.liabilities.tox21;
  const active = tox21 === null ? [] : Object.entries(tox21.probabilities).filter(([, p]) => p >= 0.5);
  rows.push(
    tox21 === null || !tox21.in_domain
      ? {
          label: "Tox21 (12 assays)",
          value: "unknown",
          method: "toxicity_profile",
          light: "a",
          ood: tox21 === null ? "did not run" : "out of domain",
        }
      : {
          label: "Tox21 (12 assays)",
          value: active.length ? `active: ${active.map(([assay]) => assay).join(", ")}` : "no assay active",
          method: "toxicity_profile (p ≥ 0.5 active)",
          light: active.length ? "r" : "g",
        },
  );
  const caco2 = raw("admet_predictions")?.caco2 ?? null;
  if (caco2 !== null)
    rows.push(
      caco2.in_domain === true && "value" in caco2
        ? {
            label: "Caco-2 permeability",
            value: `log Papp ${n(caco2.value)} log10(cm/s)`,
            method:
              "admet_predictions.caco2 (Wang 2016, TDC); green above −5.15, ADMETlab 2.0's optimal range (Xiong et al., Nucleic Acids Res. 2021, 49, W5)",
            light: caco2.value >= -5.15 ? "g" : "a",
          }
        : {
            label: "Caco-2 permeability",
            value: "unknown",
            method: "admet_predictions.caco2",
            light: "a",
            ood: "domain_reason" in caco2 ? caco2.domain_reason : "out of domain",
          },
    );
  // Where each call comes from is said once, above the cards (CARDS_INTRO): 500 cards repeating it
  // would cost the page's size bound cards.
  return panel("model-calls", "Model calls", rows);
}

function synthesisPanel(raw: FindingOf): string {
  const manufacture = raw("manufacturability_audit");
  const metabolism = raw("metabolite_prediction");
  const rows: Row[] = [];
  if (manufacture) {
    for (const key of [
      "stereocentres",
      "unspecified_stereocentres",
      "ring_systems",
      "macrocycles",
      "spiro_atoms",
      "bridgehead_atoms",
    ] as const)
      if (num(manufacture[key]) !== null)
        rows.push({ label: key.replace(/_/g, " "), value: n(manufacture[key], 0) });
    const flags = manufacture.flags ?? [];
    rows.push({
      label: "Flags",
      value: flags.length ? clip(flags.join(", ")) : "none",
      light: flags.length ? "a" : "g",
    });
  }
  let sites = "";
  const list = metabolism?.candidate_sites ?? [];
  if (metabolism) {
    const byRule = new Map<string, number[]>();
    for (const site of list) {
      byRule.set(site.rule_id, [...(byRule.get(site.rule_id) ?? []), ...site.atoms]);
    }
    const entries = [...byRule];
    sites = `<h5>Candidate sites of metabolism (${list.length})</h5>${
      entries.length
        ? `<table class="list"><thead><tr><th>Rule</th><th>Sites</th><th>Atoms</th></tr></thead><tbody>${entries
            .slice(0, MAX_ROWS)
            .map(
              ([rule, atoms]) =>
                `<tr><td>${escapeHtml(rule.replace(/_/g, " "))}</td><td>${atoms.length}</td><td>${escapeHtml(clip(atoms.join(", ")))}</td></tr>`,
            )
            .join(
              "",
            )}</tbody></table>${entries.length > MAX_ROWS ? `<p class="na-note">${entries.length - MAX_ROWS} more rules in the evidence.</p>` : ""}`
        : "<p>none predicted</p>"
    }`;
  }
  return panel("synthesis", "Synthesis and metabolism", rows, sites);
}

function rankingPanel(view: CompoundView): string {
  const score = desirabilityOf(view);
  const rows: Row[] = [
    {
      label: "Score",
      value: formatScore(score.score),
      light: score.score >= 0.5 ? "g" : score.score >= 0.3 ? "a" : "r",
      method: "weighted geometric mean × penalties",
    },
    {
      label: "Confidence",
      value: score.confidence.toFixed(2),
      light: score.confidence >= 0.8 ? "g" : score.confidence >= 0.6 ? "a" : "r",
      method: score.uncertain.length ? clip(score.uncertain.join("; ")) : "every input measured in domain",
    },
    ...score.terms.map((term) => ({
      label: `${term.label} (w ${term.weight})`,
      value: `d = ${term.d.toFixed(2)} · ${term.input}`,
      method: `${term.method}${term.status === "present" ? "" : term.status === "missing" ? "; missing, scored 0.5" : "; out of domain, capped at 0.5"}`,
      light: (term.d >= 0.7 ? "g" : term.d >= 0.4 ? "a" : "r") as Light,
    })),
    ...score.penalties
      .filter((penalty) => !score.liabilities.some((liability) => liability.id === penalty.id))
      .map((penalty) => ({
        label: "Penalty",
        value: `×${penalty.factor} ${clip(penalty.label)}`,
        light: "r" as Light,
      })),
    // Every liability model the decision read, with the factor it applied (issue 36 item 1), in one
    // row: the calls themselves are in the Model calls panel (a row each would cost the page's size bound cards).
    {
      label: "Liabilities",
      value: `×${score.liabilities.reduce((product, l) => product * l.factor, 1).toPrecision(3)} = ${score.liabilities
        .map(
          (l) =>
            `${l.id} ×${l.factor}${l.out_of_domain_estimate !== null ? ` (out of domain, est. ${n(l.out_of_domain_estimate.estimate)})` : l.call === "unknown" ? " (unknown)" : ""}`,
        )
        .join(" · ")}`,
      method: "each (1 − p)^w; not run read at p 0.5; out of domain, the estimate shrunk towards 0.5",
      light: (score.liabilities.some((l) => l.call === "positive")
        ? "r"
        : score.liabilities.every((l) => l.call === "negative")
          ? "g"
          : "a") as Light,
    },
  ];
  if (view.readiness)
    rows.push({
      label: "Readiness",
      value: `${n(view.readiness.score, 3)} · coverage ${n(view.readiness.coverage, 2)}`,
      method:
        "wetlab_priority_and_readiness_determiner (not used to order); coverage: share of its signals present in domain",
      light: view.readiness.coverage === null || view.readiness.coverage < 1 ? "a" : "g",
    });
  return panel("ranking", "Ranking", rows);
}

function similarPanel(extras: CardExtras): string {
  if (extras.neighbours === null)
    return panel(
      "similar",
      "Similar compounds",
      [],
      `<p class="na-note">Not clustered: beyond the first ranked compounds the report clusters.</p>`,
    );
  const cluster = extras.cluster
    ? `<p>Cluster ${extras.cluster.id} (${extras.cluster.size} member${extras.cluster.size === 1 ? "" : "s"}; Butina, Tanimoto ≥ 0.4 on Morgan r2 2,048 bits).</p>`
    : "";
  const body = extras.neighbours.length
    ? `<table class="list"><thead><tr><th>Compound</th><th>Rank</th><th>Tanimoto</th></tr></thead><tbody>${extras.neighbours
        .map((nb) => {
          const label = escapeHtml(nb.candidate_id);
          const link =
            nb.rank <= extras.cardedRanks
              ? `<a href="#${anchorId("card", nb.candidate_id)}">${label}</a>`
              : label;
          return `<tr><td>${link}</td><td>${nb.rank}</td><td>${nb.tanimoto.toFixed(2)}</td></tr>`;
        })
        .join("")}</tbody></table>`
    : "<p>No compound in the portfolio shares a Morgan bit with this one.</p>";
  return panel("similar", "Similar compounds", [], cluster + body);
}

/** A module's values as rows (flattened leaves, bounded), each with its unit where known. */
/**
 * A finding's values as rows. `withSource` names the module under each value, for panels that mix
 * modules; an "Other findings" panel names its module once in its heading instead (500 cards
 * repeating it under every row cost the page's size bound about 0.6 MB).
 */
function valueRows(moduleId: string, raw: Raw, withSource = true): { rows: Row[]; more: number } {
  const values = flattenFinding(moduleId, raw).filter(
    ([path, value]) =>
      !GENERIC_SKIPPED.has(path.slice(moduleId.length + 1)) &&
      (withSource ||
        !(SHOWN_ELSEWHERE[moduleId] ?? []).some((prefix) =>
          path.slice(moduleId.length + 1).startsWith(prefix),
        )) &&
      // an "Other findings" panel shows what a module found; its empty values stay in the evidence
      (withSource || (value !== null && value !== "")),
  );
  const rows = values.slice(0, MAX_OTHER_ROWS).map(([path, value]) => {
    const unit = unitOf(path);
    const label = path.slice(moduleId.length + 1).replace(/_/g, " ");
    const text = value === null ? "—" : typeof value === "number" ? formatNumber(value, 3) : clip(value);
    return { label, value: unit ? `${text} ${unit}` : text, ...(withSource ? { method: moduleId } : {}) };
  });
  return { rows, more: Math.max(0, values.length - MAX_OTHER_ROWS) };
}

function genericRows(view: CompoundView, moduleId: string): Row[] {
  const finding = view.findings.find((entry) => entry.module_id === moduleId);
  return finding === undefined ? [] : valueRows(moduleId, finding.raw).rows;
}

/**
 * Modules the card does not know yet: their non-empty values as small tables, never JSON; a module
 * with no value for this compound gets no panel (its finding is in the evidence below).
 */
function otherPanels(view: CompoundView): string[] {
  return view.findings
    .filter((finding) => !KNOWN_MODULES.has(finding.module_id))
    .flatMap((finding) => {
      const { rows, more: extra } = valueRows(finding.module_id, finding.raw, false);
      if (rows.length === 0) return [];
      const more =
        extra > 0 ? `<p class="na-note">${extra} more values in the evidence and report.csv.</p>` : "";
      return [panel(`other-${finding.module_id}`, `Other findings: ${finding.module_id}`, rows, more)];
    });
}

/**
 * A model's run-wide fields, the same on every compound it scored (issue 26 item 6 puts them on
 * every output; issue 24 item 1 the domain rule): the card's evidence leaves them out, since 500
 * cards repeating them would cost the report's size bound about 2 MB of cards (issue 10 item 5).
 * raw/<module>_raw.json keeps them on every record, and the method card states each once.
 */
const RUN_WIDE_KEYS = new Set(["model_id", "training_sha256", "training_file"]);
/** A model output's unit and label are run-wide too, on an output that names its model (issue 36 item 6). */
const MODEL_OUTPUT_KEYS = new Set(["unit", "label"]);
const isRunWideKey = (key: string, output: Raw) =>
  RUN_WIDE_KEYS.has(key) ||
  key.endsWith("domain_rule") ||
  (MODEL_OUTPUT_KEYS.has(key) && "model_id" in output);

function withoutRunWideFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutRunWideFields);
  if (value === null || typeof value !== "object") return value;
  const output = value as Raw;
  return Object.fromEntries(
    Object.entries(output)
      .filter(([key]) => !isRunWideKey(key, output))
      .map(([key, inner]) => [key, withoutRunWideFields(inner)]),
  );
}

function evidencePanel(view: CompoundView): string {
  if (view.findings.length === 0) return "";
  return `<section class="evidence-ids"><h4>Evidence</h4><p class="na-note">Each finding as recorded in ${escapeText(RUN_FILES.moduleRaw)}, without the model ids, training data files and hashes and domain rules, which the same file holds on every record and the method card states once.</p>${view.findings
    .map(
      (finding) =>
        `<div class="evidence" id="${escapeHtml(finding.evidence_id)}"><a href="#${escapeHtml(finding.evidence_id)}">${escapeHtml(finding.evidence_id)}</a> <small>${escapeHtml(finding.module_id)}</small><pre>${escapeText(JSON.stringify(withoutRunWideFields(finding.raw)))}</pre></div>`,
    )
    .join("")}</section>`;
}
