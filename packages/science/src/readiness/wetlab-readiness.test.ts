import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { NCI_5K, readNci } from "../../test/support/nci-set.ts";
import type { CompoundFinding, UpstreamFindings } from "../analysis-module.ts";
import { inOneThread } from "../define-module.ts";
import { type PreparedCompound, prepareCompound } from "../prepare-compound.ts";
import { loadRDKit } from "../rdkit.ts";
import { IMPLEMENTED_MODULES } from "../registry.ts";
import { READINESS_SIGNALS } from "./readiness-signals.ts";
import { type ReadinessFinding, type ReadinessSummary, wetlabReadiness } from "./wetlab-readiness.ts";

/** Drugs and NCI molecules chosen to spread over the signals (alerts, insoluble, flags, acids). */
const SMILES = [
  "CC(=O)Nc1ccc(O)cc1",
  "CC(=O)Oc1ccccc1C(=O)O",
  "CN1C(=O)CN=C(c2ccccc2)c2cc(Cl)ccc12",
  "O=C(O)c1ccccc1O",
  "CC(C)Cc1ccc(C(C)C(=O)O)cc1",
  "Oc1ccc(cc1)N=Nc1ccccc1",
  "CCCCCCCCCCCCCCCCCCCCCCCCCCCCCC",
  "OC1C(O)C(O)C(O)C(O)C1O",
  "CC1=CC(=O)C=CC1=O",
  "C[C@H](N)C(=O)O",
  "CC(N)C(=O)O",
  "c1ccc2cc3ccccc3cc2c1",
  "not a smiles",
];

async function compounds(): Promise<PreparedCompound[]> {
  const rdkit = await loadRDKit();
  const nci = readNci(readFileSync(NCI_5K, "utf8")).slice(0, 12);
  const all = [...SMILES, ...nci.map(([smiles]) => smiles)];
  return all.map((smiles, at) =>
    prepareCompound(rdkit, {
      index: at + 1,
      line: at + 2,
      candidateId: `C${at + 1}`,
      name: null,
      smiles,
      metadata: {},
    }),
  );
}

/** The real modules' findings of each compound, as the runner builds them (registry order). */
function upstreamOf(list: readonly PreparedCompound[]): Map<string, CompoundFinding>[] {
  const analyzers = IMPLEMENTED_MODULES.filter((m) => m.id !== wetlabReadiness.id).map((m) => ({
    id: m.id,
    analyzer: inOneThread(m),
  }));
  return list.map((compound) => {
    const findings = new Map<string, CompoundFinding>();
    for (const { id, analyzer } of analyzers) findings.set(id, analyzer.analyze(compound, findings));
    return findings;
  });
}

function rank(
  list: readonly PreparedCompound[],
  upstream: readonly UpstreamFindings[],
  order: readonly number[] = list.map((_, at) => at),
): { findings: ReadinessFinding[]; summary: ReadinessSummary } {
  const analyzer = inOneThread(wetlabReadiness);
  const findings = order.map((at) => analyzer.analyze(list[at] as PreparedCompound, upstream[at]));
  return { findings, summary: analyzer.finish() };
}

function rankOf(summary: ReadinessSummary, candidateId: string): number {
  const entry = summary.ranking.find((e) => e.candidate_id === candidateId);
  assert.ok(entry);
  return entry.rank;
}

/** A copy of `upstream` with one finding's key replaced. */
function withValue(
  upstream: UpstreamFindings,
  module: string,
  patch: Record<string, unknown>,
): UpstreamFindings {
  const copy = new Map(upstream);
  const finding = upstream.get(module);
  assert.ok(finding, module);
  copy.set(module, { ...finding, ...patch } as CompoundFinding);
  return copy;
}

/** Each signal moved to its best value: the one change that must never cost a compound rank. */
function improve(upstream: UpstreamFindings, signal: string): UpstreamFindings | null {
  const finding = upstream.get(READINESS_SIGNALS.find((s) => s.id === signal)?.module ?? "") as
    | Record<string, unknown>
    | undefined;
  if (finding === undefined || finding.status !== "assessed") return null;
  switch (signal) {
    case "qed":
      return withValue(upstream, "admet_predictions", { qed: Math.min(1, Number(finding.qed) + 0.2) });
    case "gi_absorption":
      return withValue(upstream, "admet_predictions", {
        boiled_egg: { ...(finding.boiled_egg as object), gi_absorption: "high" },
      });
    case "bioavailability_score":
      return withValue(upstream, "admet_predictions", { bioavailability_score: 0.85 });
    case "solubility":
      return withValue(upstream, "solubility_assessment", { log_s: Number(finding.log_s) + 1.5 });
    case "pains":
      return withValue(upstream, "toxicity_profile", { pains: [] });
    case "nibr_exclude":
      return withValue(upstream, "toxicity_profile", { nibr: [] });
    case "manufacturability_flags":
      return withValue(upstream, "manufacturability_audit", { flags: [] });
    default:
      return null;
  }
}

describe("wetlab_priority_and_readiness_determiner", () => {
  it("gives the same findings and ranking on every run and in any feeding order", async () => {
    const list = await compounds();
    const upstream = upstreamOf(list);
    const first = rank(list, upstream);
    // Recomputed from scratch: the modules and the ranking give identical JSON.
    assert.deepEqual(rank(list, upstreamOf(list)), first);
    const reversed = rank(
      list,
      upstream,
      list.map((_, at) => list.length - 1 - at),
    );
    assert.deepEqual(reversed.summary.ranking, first.summary.ranking);
    assert.equal(first.summary.ranking.length, list.length);
    // Scores are in [0, 1], the ranking sorted by them, the unparseable compound last.
    const scores = first.summary.ranking.map((e) => e.readiness_score);
    assert.equal(scores.at(-1), null);
    for (let at = 1; at < scores.length - 1; at++) assert.ok((scores[at - 1] ?? 0) >= (scores[at] ?? 0));
  });

  it("never lowers a compound's rank when one of its signals improves (every compound × every signal)", async () => {
    const list = await compounds();
    const upstream = upstreamOf(list);
    const base = rank(list, upstream).summary;
    let checked = 0;
    let raised = 0;
    for (const [at, compound] of list.entries())
      for (const signal of READINESS_SIGNALS) {
        const better = improve(upstream[at] as UpstreamFindings, signal.id);
        if (better === null) continue;
        const changed = upstream.map((u, i) => (i === at ? better : u));
        const after = rank(list, changed).summary;
        const id = compound.row.candidateId;
        assert.ok(rankOf(after, id) <= rankOf(base, id), `${id}: improving ${signal.id} lowered its rank`);
        const scoreBefore = base.ranking.find((e) => e.candidate_id === id)?.readiness_score ?? 0;
        const scoreAfter = after.ranking.find((e) => e.candidate_id === id)?.readiness_score ?? 0;
        assert.ok(scoreAfter >= scoreBefore, `${id}: improving ${signal.id} lowered its score`);
        checked++;
        if (rankOf(after, id) < rankOf(base, id)) raised++;
      }
    // The test must be able to fail: most improvements really move something.
    assert.ok(checked >= 100, `checked ${checked}`);
    assert.ok(raised > 0, "no improvement ever raised a rank");
  });

  it("reports a module that did not run as missing, left out of the score rather than read as good or bad", async () => {
    const list = (await compounds()).slice(0, 1);
    const full = upstreamOf(list)[0] as Map<string, CompoundFinding>;
    const present = rank(list, [full]).findings[0] as ReadinessFinding;
    assert.equal(present.signals?.find((s) => s.id === "sa_score")?.status, "present");
    // A module that did not run (here synthesis_audit): its signal is missing, with the reason.
    const withoutSa = new Map(full);
    withoutSa.delete("synthesis_audit");
    const sa = (rank(list, [withoutSa]).findings[0] as ReadinessFinding).signals?.find(
      (s) => s.id === "sa_score",
    );
    assert.equal(sa?.status, "missing");
    assert.match(sa?.status === "missing" ? sa.reason : "", /synthesis_audit produced no finding/);
    const withoutSolubility = new Map(full);
    withoutSolubility.delete("solubility_assessment");
    const missing = rank(list, [withoutSolubility]).findings[0] as ReadinessFinding;
    const solubility = missing.signals?.find((s) => s.id === "solubility");
    assert.equal(solubility?.status, "missing");
    assert.ok(missing.missing_signals?.includes("solubility"));
    assert.ok((missing.coverage ?? 1) < (present.coverage ?? 0));
    // The score is the mean over what is present: equal to recomputing without the signal,
    // and different from scoring it as 0 (bad) or 1 (good).
    const others = (present.signals ?? []).filter((s) => s.status === "present" && s.id !== "solubility");
    const mean =
      others.reduce((sum, s) => sum + (s.status === "present" ? s.desirability : 0), 0) / others.length;
    assert.ok(Math.abs((missing.readiness_score ?? -1) - mean) < 1e-4);
    const asZero = (mean * others.length) / (others.length + 1);
    const asOne = (mean * others.length + 1) / (others.length + 1);
    assert.notEqual(missing.readiness_score, Math.round(asZero * 10_000) / 10_000);
    assert.notEqual(missing.readiness_score, Math.round(asOne * 10_000) / 10_000);
    assert.match(missing.rationale ?? "", /missing: .*log S/);
  });

  it("counts an estimate out of its model's domain as missing evidence (coverage < 1), never as its value (issue 24 item 1)", async () => {
    const list = (await compounds()).slice(0, 1);
    const full = upstreamOf(list)[0] as Map<string, CompoundFinding>;
    const present = rank(list, [full]).findings[0] as ReadinessFinding;
    assert.equal(present.coverage, 1);
    // Even a finding that kept a (good) value beside in_domain false is not read as that value.
    const outside = new Map(full);
    const solubility = full.get("solubility_assessment") as CompoundFinding;
    outside.set("solubility_assessment", {
      ...solubility,
      log_s: 0,
      in_domain: false,
      reason: "out_of_domain: a test's reason",
    } as CompoundFinding);
    const finding = rank(list, [outside]).findings[0] as ReadinessFinding;
    const reading = finding.signals?.find((s) => s.id === "solubility");
    assert.equal(reading?.status, "missing");
    assert.match(
      reading?.status === "missing" ? reading.reason : "",
      /out of its domain: out_of_domain: a test's reason/,
    );
    assert.ok((finding.coverage ?? 1) < 1);
    assert.ok(finding.missing_signals?.includes("solubility"));
  });

  it("shows every signal's value, desirability, weight and source module", async () => {
    const list = (await compounds()).slice(0, 1);
    const { findings, summary } = rank(list, upstreamOf(list));
    const finding = findings[0] as ReadinessFinding;
    assert.equal(finding.signals?.length, READINESS_SIGNALS.length);
    for (const signal of finding.signals ?? []) {
      assert.match(signal.source, /^[a-z_]+\.[a-z_.[\]=A-Z]+$/);
      assert.equal(signal.weight, 1);
    }
    // Each signal's label and desirability function, with its citation, once in the summary.
    assert.deepEqual(
      summary.signals.map((s) => s.id),
      READINESS_SIGNALS.map((s) => s.id),
    );
    for (const signal of summary.signals) assert.match(signal.transform, /\d{4}/);
    const qed = finding.signals?.find((s) => s.id === "qed");
    assert.equal(qed?.status, "present");
    assert.equal(qed?.source, "admet_predictions.qed");
  });

  it("refuses to run without the other modules' findings", async () => {
    const list = (await compounds()).slice(0, 1);
    assert.throws(() => inOneThread(wetlabReadiness).analyze(list[0] as PreparedCompound), /upstream/);
  });
});
