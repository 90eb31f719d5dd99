import assert from "node:assert/strict";
import { test } from "node:test";
import { CNS_MPO_COMPONENTS } from "@svc/science/cns";
import type { TargetProductProfile } from "@svc/science/decision";
import { SOLUBILITY_CLASS_FLOORS } from "@svc/science/solubility";
import { type CompoundView, readCompoundView } from "./compound-view.ts";
import { desirabilityOf } from "./desirability.ts";
import {
  compareRankKeys,
  evidenceOf,
  explainTop,
  FIRST_IN_LINE_MAX,
  firstInLine,
  rankKeyOf,
} from "./ranking.ts";

// Findings shaped as the science modules write them (results/combined_unified_computational_outputs.json).
const reasons = new Map<string, string>();

interface Variant {
  readonly id: string;
  readonly index: number;
  readonly permanentCharge?: boolean;
  readonly solubilityInDomain?: boolean;
  readonly logS?: number;
  readonly mw?: number;
  readonly toxicityRan?: boolean;
  readonly compoundClass?: string;
  /** In-domain hERG probability and call (default 0.1, negative). */
  readonly herg?: { probability: number; call: "positive" | "negative" | "uncertain" };
  /** hERG out of its similarity floor, with the estimate the module kept for audit. */
  readonly hergOutOfDomain?: number;
  readonly profile?: TargetProductProfile;
  readonly logd?: number;
  readonly pgp?: number;
}

/** A TDC classifier output as science writes it, in domain. */
const inDomain = (probability: number, call: string) => ({
  probability,
  call,
  prediction_set: call === "uncertain" ? ["positive", "negative"] : [call],
  in_domain: true,
});
const cleanCyp = Object.fromEntries(
  ["CYP1A2", "CYP2C9", "CYP2C19", "CYP2D6", "CYP3A4"].map((isoform) => [isoform, inDomain(0.05, "negative")]),
);

function compound(variant: Variant): CompoundView {
  const mw = variant.mw ?? 330;
  const findings = new Map<string, unknown>([
    [
      "molecular_logic",
      {
        permanent_charge: variant.permanentCharge ?? false,
        duplicate_of: null,
        compound_class: variant.compoundClass ?? "organic",
      },
    ],
    [
      "admet_predictions",
      {
        mw,
        wlogp: 2.4,
        tpsa: 70,
        tpsa_sp: 70,
        hbd: 1,
        hba: 4,
        rotatable_bonds: 4,
        fsp3: 0.35,
        qed: 0.8,
        boiled_egg: { gi_absorption: "high", bbb_permeant: false, region: "white" },
        logd74: { value: variant.logd ?? 1.8, in_domain: true, nearest_tanimoto: 0.7 },
        pgp: inDomain(variant.pgp ?? 0.1, (variant.pgp ?? 0.1) >= 0.5 ? "positive" : "negative"),
      },
    ],
    // admet_predictions writes no aromatic ring count: QED's AROM comes from kinase_drug_likeness.
    ["kinase_drug_likeness", { descriptors: { aromatic_rings: 2 } }],
    ["cyp_assessment", { isoforms: cleanCyp }],
    ["solubility_assessment", { log_s: variant.logS ?? -3, in_domain: variant.solubilityInDomain ?? true }],
    ["synthesis_audit", { sa_score: 2.5 }],
    ["clinical_precedent_prior", { ct_tox_probability: 0.1, ct_tox_in_domain: true }],
  ]);
  if (variant.toxicityRan !== false)
    findings.set("toxicity_profile", {
      pains: [],
      brenk: [],
      nibr: [],
      tox21_fingerprint_model: { probabilities: { "NR-AR": 0.05 }, in_domain: true },
      herg:
        variant.hergOutOfDomain === undefined
          ? inDomain(variant.herg?.probability ?? 0.1, variant.herg?.call ?? "negative")
          : {
              status: "out_of_domain",
              in_domain: false,
              domain_rule: "nearest training parent Tanimoto ≥ 0.45",
              domain_reason: "out_of_domain: nearest training compound at Tanimoto 0.3",
              raw_out_of_domain: { probability: variant.hergOutOfDomain, in_domain: false },
            },
      ames: inDomain(0.1, "negative"),
      dili: inDomain(0.1, "negative"),
    });
  return readCompoundView(
    {
      row: { index: variant.index, candidateId: variant.id, name: null, smiles: "C", metadata: {} },
      ok: true,
      chem: { parent_smiles: "C", parent_inchikey: null, inchikey: null, fragment_count: 1 },
    },
    findings,
    reasons,
    variant.profile === undefined ? {} : { profile: variant.profile },
  );
}

const ranked = (views: CompoundView[]) =>
  [...views].sort((a, b) => compareRankKeys(rankKeyOf(a), rankKeyOf(b)));

test("a permanently charged compound ranks below a comparable neutral one, even listed first", () => {
  const charged = compound({ id: "QUAT", index: 0, permanentCharge: true });
  const neutral = compound({ id: "AMINE", index: 1 });
  assert.deepEqual(
    ranked([charged, neutral]).map((view) => view.candidate_id),
    ["AMINE", "QUAT"],
  );
  assert.ok(desirabilityOf(charged).penalties.some((penalty) => penalty.id === "permanent_charge"));
});

test("an out-of-domain prediction lowers score and confidence instead of counting as good", () => {
  const outside = compound({ id: "OOD", index: 0, solubilityInDomain: false });
  const inside = compound({ id: "IN", index: 1 });
  assert.deepEqual(
    ranked([outside, inside]).map((view) => view.candidate_id),
    ["IN", "OOD"],
  );
  const a = desirabilityOf(outside);
  const b = desirabilityOf(inside);
  assert.ok(a.confidence < b.confidence);
  assert.equal(a.terms.find((term) => term.id === "solubility")?.d, 0.5);
  assert.equal(b.terms.find((term) => term.id === "solubility")?.d, 1);
});

test("a liability model that did not run is read as unknown (p 0.5), never as clean: it lowers score and confidence and is named (issue 36 item 1)", () => {
  const unscreened = compound({ id: "NO-TOX", index: 0, toxicityRan: false });
  const screened = compound({ id: "TOX", index: 1 });
  const a = desirabilityOf(unscreened);
  const b = desirabilityOf(screened);
  assert.ok(a.confidence < b.confidence);
  assert.ok(a.score < b.score);
  assert.equal(a.clean, false);
  assert.equal(b.clean, true);
  assert.deepEqual(
    a.liabilities.filter((l) => l.call === "unknown").map((l) => l.id),
    ["herg", "dili", "ames"],
  );
  assert.match(evidenceOf(a), /unknown, not clean: hERG blocker .*DILI concern .*Ames mutagen/);
  assert.match(evidenceOf(b), /^no alert or predicted liability/);
  assert.deepEqual(
    ranked([unscreened, screened]).map((view) => view.candidate_id),
    ["TOX", "NO-TOX"],
  );
});

test("size discriminates: a 140 g/mol fragment ranks below a lead-sized compound", () => {
  const small = compound({ id: "SMALL", index: 0, mw: 140 });
  const lead = compound({ id: "LEAD", index: 1, mw: 330 });
  assert.deepEqual(
    ranked([small, lead]).map((view) => view.candidate_id),
    ["LEAD", "SMALL"],
  );
});

test("first in line is a bounded group, and the top sentence says why #1 leads and what would lift #2", () => {
  const seven = Array.from({ length: 7 }, (_, index) =>
    compound({ id: `C${index}`, index, logS: -3.8 - index * 0.3 }),
  );
  const order = ranked(seven);
  assert.equal(firstInLine(order, 7).length, 1, "10% of 7 compounds, rounded up");
  const many = Array.from({ length: 300 }, (_, index) => compound({ id: `M${index}`, index }));
  assert.equal(firstInLine(ranked(many), 300).length, FIRST_IN_LINE_MAX);
  const text = explainTop(order[0], order[1]);
  assert.match(text, /^#1 C0 is first: score 0\.\d{3}/);
  assert.match(
    text,
    /#2 C1 scores 0\.\d{3}, 0\.\d+ lower; it would move above #1 if its .+ desirability rose from \d\.\d\d to \d\.\d\d/,
  );
});

test("a compound outside the organic classes ranks after every organic one, however good its remaining values look, and is never first in line (issue 24 items 2, 8)", () => {
  // The siloxane's descriptors are those of a good compound (the case a reviewing chemist found ranked #1).
  const siloxane = compound({ id: "siloxane", index: 0, compoundClass: "non_druglike_elements" });
  const poor = compound({ id: "poor", index: 1, logS: -7, mw: 560, permanentCharge: true });
  assert.ok(desirabilityOf(siloxane).score > desirabilityOf(poor).score, "the test needs the harder case");
  const ranked = [siloxane, poor].sort((a, b) => compareRankKeys(rankKeyOf(a), rankKeyOf(b)));
  assert.deepEqual(
    ranked.map((v) => v.candidate_id),
    ["poor", "siloxane"],
  );
  assert.ok(firstInLine([siloxane], 1).length === 0);
});

test("a compound with an in-domain hERG probability ≥ 0.9 is never described as free of liabilities and is never first in line, even when everything else about it is best (issue 36 Done when)", () => {
  const blocker = compound({ id: "BLOCKER", index: 0, herg: { probability: 0.93, call: "positive" } });
  const others = Array.from({ length: 9 }, (_, index) =>
    compound({ id: `C${index}`, index: index + 1, logS: -4.2 - index * 0.1 }),
  );
  const order = ranked([blocker, ...others]);
  const score = desirabilityOf(blocker);
  assert.equal(score.clean, false);
  assert.doesNotMatch(evidenceOf(score), /no alert or predicted liability/);
  assert.match(evidenceOf(score), /hERG blocker \(in-vitro IC50 label\) p 0\.93 \(positive, ×0\.07\)/);
  assert.notEqual(order[0]?.candidate_id, "BLOCKER");
  const first = firstInLine(order, 100);
  assert.ok(first.length > 0);
  assert.ok(!first.some((view) => view.candidate_id === "BLOCKER"));
  // Even alone, with nothing better to send, it is not put first.
  assert.deepEqual(firstInLine([blocker], 1), []);
  assert.doesNotMatch(explainTop(order[0], order[1]), /BLOCKER.*no alert or predicted liability/);
});

test("an uncertain hERG call is named in the lead sentence with its probability; only an all-negative in-domain panel reads 'no alert or predicted liability'", () => {
  const unsure = compound({ id: "UNSURE", index: 0, herg: { probability: 0.7, call: "uncertain" } });
  const text = explainTop(unsure, undefined);
  assert.match(text, /predicted liabilities: hERG blocker \(in-vitro IC50 label\) p 0\.70 \(uncertain/);
  assert.doesNotMatch(text, /no alert or predicted liability/);
});

test("each target product profile orders by its own functions: CNS MPO log D and brain access only for oral_cns, the log D 1–3 range otherwise; P-gp a liability only for CNS; GI absorption and permanent charge not for non_oral (issue 36 item 2)", () => {
  const term = (view: CompoundView, id: string) => desirabilityOf(view).terms.find((t) => t.id === id);
  const lipophilic = (profile: TargetProductProfile) => compound({ id: "L", index: 0, logd: 3.5, profile });
  assert.equal(term(lipophilic("oral_cns"), "logd74")?.d, 0.25, "Wager: 1 at ≤ 2, 0 at ≥ 4");
  assert.equal(term(lipophilic("oral_peripheral"), "logd74")?.d, 0.75, "Waring: 1 from 1 to 3, 0 at ≥ 5");
  assert.equal(term(lipophilic("non_oral"), "logd74")?.d, 0.75);
  assert.ok(term(lipophilic("oral_cns"), "brain_access"));
  assert.equal(term(lipophilic("oral_peripheral"), "brain_access"), undefined);
  assert.equal(term(lipophilic("non_oral"), "gi_absorption"), undefined);
  assert.ok(term(lipophilic("oral_peripheral"), "gi_absorption"));

  const inhibitor = (profile: TargetProductProfile) => compound({ id: "P", index: 0, pgp: 0.9, profile });
  const pgpOf = (view: CompoundView) => desirabilityOf(view).liabilities.find((l) => l.id === "pgp");
  assert.equal(pgpOf(inhibitor("oral_cns"))?.call, "positive");
  assert.equal(pgpOf(inhibitor("oral_peripheral")), undefined);
  assert.ok(desirabilityOf(inhibitor("oral_cns")).score < desirabilityOf(inhibitor("oral_peripheral")).score);

  const quat = (profile: TargetProductProfile) =>
    compound({ id: "Q", index: 0, permanentCharge: true, profile });
  const charged = (view: CompoundView) =>
    desirabilityOf(view).penalties.some((p) => p.id === "permanent_charge");
  assert.equal(charged(quat("oral_peripheral")), true);
  assert.equal(charged(quat("non_oral")), false);
  assert.equal(desirabilityOf(quat("oral_cns")).profile, "oral_cns");
});

test("a censored potency is never scored better than the data guarantee: p > 8 at its bound, p < 9 at most even odds (issue 37 item 6)", () => {
  const withPotency = (p_activity: number, relation: string) => {
    const view = compound({ id: "P", index: 0 });
    return desirabilityOf({ ...view, potency: { p_activity, relation, rows: 1 } }).terms.find(
      (term) => term.id === "potency",
    );
  };
  assert.equal(withPotency(8, ">")?.d, 1);
  assert.equal(withPotency(9, "<")?.d, 0.5);
  assert.equal(withPotency(5.5, "<")?.d.toFixed(3), "0.167");
  assert.equal(withPotency(9, "=")?.d, 1);
  assert.match(withPotency(9, "<")?.input ?? "", /pActivity < 9 \(assays_csv\)/);
});

test("out of hERG's similarity floor the kept estimate still moves the order, shrunk towards even odds by the skill the model keeps there; its call stays unknown; outside the organic classes it is ignored (issue 36: every finding, in domain or not)", () => {
  const likelyBlocker = compound({ id: "OOD-HIGH", index: 0, hergOutOfDomain: 0.95 });
  const unlikely = compound({ id: "OOD-LOW", index: 1, hergOutOfDomain: 0.05 });
  assert.deepEqual(
    ranked([likelyBlocker, unlikely]).map((view) => view.candidate_id),
    ["OOD-LOW", "OOD-HIGH"],
  );
  const high = desirabilityOf(likelyBlocker).liabilities.find((l) => l.id === "herg");
  assert.equal(high?.call, "unknown", "never a call out of domain");
  const share = high?.out_of_domain_estimate?.skill_share ?? 0;
  assert.ok(share > 0 && share <= 1, `hERG keeps a measured share of its skill below its floor (${share})`);
  assert.ok(Math.abs((high?.p ?? 0) - (0.5 + share * 0.45)) < 1e-9, "read at 0.5 + share × (estimate − 0.5)");
  const penalty = desirabilityOf(likelyBlocker).penalties.find((p) => p.id === "herg");
  assert.match(
    penalty?.label ?? "",
    /out of domain: estimate 0\.95, read at p 0\.\d+ \(the model keeps \d+% of its skill below its floor\)/,
  );
  assert.ok(
    desirabilityOf(likelyBlocker).confidence === desirabilityOf(unlikely).confidence,
    "both count as not known in domain",
  );
  const inorganic = desirabilityOf(
    compound({ id: "SALT", index: 2, hergOutOfDomain: 0.95, compoundClass: "inorganic" }),
  );
  assert.equal(
    inorganic.liabilities.find((l) => l.id === "herg")?.p,
    0.5,
    "outside the organic classes the model does not apply",
  );
});

test("the solubility and oral_cns log D desirabilities ramp between bounds science owns, stated in their method: 1 from SwissADME's soluble class, 0 from poorly soluble; Wager's ClogD breakpoints (issue 41 item 5)", () => {
  const term = (view: CompoundView, id: string) => desirabilityOf(view).terms.find((t) => t.id === id);
  const { soluble, moderately } = SOLUBILITY_CLASS_FLOORS;
  const solubility = (logS: number) => term(compound({ id: "S", index: 0, logS }), "solubility");
  assert.equal(solubility(soluble)?.d, 1);
  assert.equal(solubility((soluble + moderately) / 2)?.d, 0.5);
  assert.equal(solubility(moderately)?.d, 0);
  assert.match(solubility(soluble)?.method ?? "", /1 at ≥ −4, 0 at ≤ −6/);
  const { oneAtOrBelow, zeroAtOrAbove } = CNS_MPO_COMPONENTS.clogd;
  const logd = (value: number) =>
    term(compound({ id: "L", index: 0, logd: value, profile: "oral_cns" }), "logd74");
  assert.equal(logd(oneAtOrBelow)?.d, 1);
  assert.equal(logd(zeroAtOrAbove)?.d, 0);
  assert.match(
    logd(oneAtOrBelow)?.method ?? "",
    new RegExp(`1 at ≤ ${oneAtOrBelow}, 0 at ≥ ${zeroAtOrAbove}`),
  );
});
