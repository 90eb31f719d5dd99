import { type PresealReason, RUN_FILES } from "@svc/core";
import type { DrugLikenessSummary } from "@svc/science/admet";
import { DRUG_LIKENESS_RULES } from "@svc/science/admet";
import type { MolecularLogicSummary } from "@svc/science/parent";
import { RISK_CHANNELS, type RunFacts } from "./run-facts.ts";

export const REPORT_FILE = RUN_FILES.reportHtml;

/** What a pre-seal's reason means, in the words the summary and the report use. */
export const PRESEAL_CAUSE: Readonly<Record<PresealReason, string>> = {
  run_complete_unreachable: "run_complete was unreachable",
  run_complete_unauthorized:
    "run_complete refused the job's credentials (an expired or revoked token, or a principal no longer allowed)",
};

/**
 * Where the seal of a run is, in the summary's words. The summary is a sealed output written before
 * run_complete answers, so it names where the outcome is recorded rather than the outcome
 * (issue 29 item 2): a file that said "sealed" before the seal existed would have to be rewritten
 * when run_complete failed, after it was hashed.
 */
export const SUMMARY_SEAL_NOTE = `this summary is one of the sealed outputs, written before sealing, so it does not say whether the run was sealed: ${RUN_FILES.sealJson} and ${RUN_FILES.sealSignature} are the issuer's seal (verify with the issuer's key, never the folder's own: svc seal verify <run dir> --issuer <entitlement url>, or a key pinned with svc trust add); ${RUN_FILES.preseal} in their place means run_complete has not answered yet (complete with svc-runner seal --run-dir <run dir>); svc runs status <run id> shows the run's status record`;

/** results/summary.json: the run at a glance. */
export function buildSummary(facts: RunFacts) {
  const ml = facts.summaries.get("molecular_logic") as MolecularLogicSummary | undefined;
  const dl = facts.summaries.get("kinase_drug_likeness") as DrugLikenessSummary | undefined;
  return {
    schema: "svc.summary/v2",
    status: "completed",
    run_id: facts.run_id,
    project_id: facts.project_id,
    mode: facts.mode,
    module_id: facts.module_id,
    category_id: facts.plan.category.category_id,
    category_resolution: facts.plan.category,
    generated_at: facts.generated_at,
    inputs_sha256: facts.inputs_sha256,
    compounds: {
      total: facts.compounds,
      parsed: ml?.parsed ?? null,
      unparseable: ml?.unparseable ?? null,
      unparseable_candidates: ml?.unparseable_candidates ?? null,
      duplicates: ml?.duplicate_count ?? null,
      // Structures RDKit could not assess (over the size limits, a fault or the time budget;
      // issue 10 item 2): not unparseable; molecular_logic counts them apart.
      unassessed: facts.validation.unassessed,
      first_unassessed: facts.validation.first_unassessed,
      validation: RUN_FILES.validation,
    },
    claim_strength: facts.counts.claim_strength,
    // Every cause that kept the claim from SUPPORTED, in words (issue 37 item 3); empty when SUPPORTED.
    claim_reasons: facts.counts.claim_reasons,
    work_shortfalls: facts.counts.work_shortfalls,
    profile: facts.profile,
    coverage_ratio: facts.counts.coverage_ratio,
    missing_proof: facts.counts.missing_required,
    module_counts: {
      total: facts.counts.total,
      executed: facts.counts.executed,
      failed: facts.counts.failed,
      skipped: facts.counts.skipped,
      required: facts.counts.required,
      required_executed: facts.counts.required_executed,
    },
    drug_likeness: dl
      ? {
          assessed: dl.assessed,
          lipinski_pass_rate: dl.lipinski_pass_rate,
          veber_pass_rate: dl.veber_pass_rate,
          egan_pass_rate: dl.egan_pass_rate,
          all_rules_pass_rate: dl.all_rules_pass_rate,
          evidence_id: "EID-kinase_drug_likeness-summary",
        }
      : null,
    primary_candidate: facts.primary_candidate_id
      ? { candidate_id: facts.primary_candidate_id, findings: facts.primary_findings }
      : null,
    context: facts.context,
    report: REPORT_FILE,
    seal: { recorded_in: RUN_FILES.sealDir, note: SUMMARY_SEAL_NOTE },
  };
}

/**
 * results/summary.json of a run stopped by a signal after its charge (issue 10 item 6): no other
 * result file is trustworthy, so this one says what happened and how to resume.
 */
export function buildInterruptedSummary(fields: {
  run_id: string;
  project_id: string;
  mode: string;
  signal: string | null;
  stage: string;
  interrupted_at: string;
}) {
  return {
    schema: "svc.summary/v2",
    status: "interrupted",
    ...fields,
    resume:
      "run svc-runner again with the same --run-id: the consumed run is replayed (not charged again) and every output is rebuilt",
  };
}

interface Metric {
  readonly metric_id: string;
  readonly module_id: string;
  readonly value: number;
  readonly unit: string;
  readonly evidence_id: string;
}

/** results/metrics.json: every number the run computed, each tied to its evidence id. */
export function buildMetrics(facts: RunFacts) {
  const metrics: Metric[] = [];
  const add = (module_id: string, metric_id: string, value: number | undefined, unit: string) => {
    if (value !== undefined)
      metrics.push({ metric_id, module_id, value, unit, evidence_id: `EID-${module_id}-summary` });
  };
  const ml = facts.summaries.get("molecular_logic") as MolecularLogicSummary | undefined;
  add("molecular_logic", "compounds", ml?.compounds, "count");
  add("molecular_logic", "parsed", ml?.parsed, "count");
  add("molecular_logic", "parse_rate", ml?.parse_rate, "ratio");
  add("molecular_logic", "multi_fragment", ml?.multi_fragment, "count");
  add("molecular_logic", "charged_parents", ml?.charged_parents, "count");
  add("molecular_logic", "with_unspecified_stereo", ml?.with_unspecified_stereo, "count");
  add("molecular_logic", "duplicates", ml?.duplicate_count, "count");
  const dl = facts.summaries.get("kinase_drug_likeness") as DrugLikenessSummary | undefined;
  add("kinase_drug_likeness", "assessed", dl?.assessed, "count");
  add("kinase_drug_likeness", "lipinski_pass_rate", dl?.lipinski_pass_rate, "ratio");
  add("kinase_drug_likeness", "veber_pass_rate", dl?.veber_pass_rate, "ratio");
  add("kinase_drug_likeness", "egan_pass_rate", dl?.egan_pass_rate, "ratio");
  add("kinase_drug_likeness", "all_rules_pass_rate", dl?.all_rules_pass_rate, "ratio");
  for (const [key, value] of Object.entries(dl?.mean ?? {}))
    add("kinase_drug_likeness", `mean_${key}`, value, unitOf(key));
  add("plan", "coverage_ratio", facts.counts.coverage_ratio, "ratio");
  return { schema: "svc.metrics/v1", run_id: facts.run_id, generated_at: facts.generated_at, metrics };
}

function unitOf(key: string): string {
  if (key === "mw") return "g/mol";
  if (key === "tpsa") return "Å²";
  if (key === "clogp") return "log units";
  return key === "fsp3" ? "ratio" : "count";
}

/** Per risk channel: which modules of the category feed it and what happened to them (also shown in the report). */
export function channelStates(facts: RunFacts) {
  return RISK_CHANNELS.map((channel) => {
    const modules = facts.plan.modules.filter(
      (entry) =>
        entry.risk_channel === channel && entry.bucket !== "disabled" && entry.bucket !== "not_in_category",
    );
    const executed = modules.filter((entry) => entry.outcome === "executed").map((entry) => entry.module_id);
    return {
      channel,
      status: executed.length > 0 ? ("measured" as const) : ("missing" as const),
      modules_executed: executed,
      modules_missing: modules
        .filter((entry) => entry.outcome !== "executed")
        .map((entry) => entry.module_id),
    };
  });
}

/** results/risk_channels_map.json. */
export function buildRiskChannelsMap(facts: RunFacts) {
  return {
    schema: "svc.risk-channels/v1",
    run_id: facts.run_id,
    category_id: facts.plan.category.category_id,
    channels: channelStates(facts).map(({ channel, status, modules_executed, modules_missing }) => ({
      channel,
      status,
      modules: [
        ...modules_executed.map((module_id) => ({ module_id, outcome: "executed" })),
        ...modules_missing.map((module_id) => ({ module_id, outcome: "missing" })),
      ],
    })),
  };
}

/** thresholds/category_scores.json: scores only where measured; missing is missing, not low risk. */
export function buildCategoryScores(facts: RunFacts) {
  const dl = facts.summaries.get("kinase_drug_likeness") as DrugLikenessSummary | undefined;
  return {
    schema: "svc.category-scores/v1",
    run_id: facts.run_id,
    category_id: facts.plan.category.category_id,
    claim_strength: facts.counts.claim_strength,
    channels: channelStates(facts).map((state) => ({
      ...state,
      score:
        state.channel === "chemistry" && dl
          ? {
              name: "drug_likeness_all_rules_pass_rate",
              value: dl.all_rules_pass_rate,
              evidence_id: "EID-kinase_drug_likeness-summary",
            }
          : null,
      note:
        state.status === "missing"
          ? "no executed module feeds this channel: shown as missing, not as low risk"
          : null,
    })),
  };
}

/** thresholds/measurement_profile.json: what was measured, how, and against which thresholds. */
export function buildMeasurementProfile(facts: RunFacts, rdkitVersion: string) {
  return {
    schema: "svc.measurement-profile/v1",
    run_id: facts.run_id,
    toolkit: { name: "RDKit MinimalLib (WebAssembly)", version: rdkitVersion },
    descriptors_on:
      "standardized parent (salts stripped, largest organic fragment by heavy atoms, charges neutralised)",
    measurements: [
      { id: "mw", source: "RDKit amw", unit: "g/mol" },
      { id: "clogp", source: "RDKit CrippenClogP: Wildman–Crippen WLOGP", unit: "log units" },
      {
        id: "tpsa",
        source: "RDKit tpsa (N and O only; BOILED-Egg reads admet_predictions.tpsa_sp, with S and P)",
        unit: "Å²",
      },
      { id: "hbd", source: "RDKit lipinskiHBD (NH + OH count)", unit: "count" },
      { id: "hba", source: "RDKit lipinskiHBA (N + O count)", unit: "count" },
      { id: "rotatable_bonds", source: "RDKit NumRotatableBonds", unit: "count" },
      { id: "aromatic_rings", source: "RDKit NumAromaticRings", unit: "count" },
      { id: "fsp3", source: "RDKit FractionCSP3", unit: "ratio" },
    ],
    rules: DRUG_LIKENESS_RULES,
  };
}

/** thresholds/risk_summary.json: the translational risk index's channels, complete or not. */
export function buildRiskSummary(facts: RunFacts) {
  const states = channelStates(facts);
  const missing = states.filter((state) => state.status === "missing").map((state) => state.channel);
  return {
    schema: "svc.risk-summary/v1",
    run_id: facts.run_id,
    channels_measured: states.filter((state) => state.status === "measured").map((state) => state.channel),
    channels_missing: missing,
    translational_risk_index: missing.length === 0 ? "computable" : "incomplete",
    note:
      missing.length === 0
        ? null
        : `${missing.length} of ${states.length} risk channels have no executed module; the index is not computed`,
    claim_strength: facts.counts.claim_strength,
    missing_proof: facts.counts.missing_required,
  };
}
