import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { row } from "../../test/support/compound-row.ts";
import { inOneThread } from "../define-module.ts";
import { packBits } from "../fingerprint/morgan.ts";
import { fingerprintSet } from "../fingerprint/reference-set.ts";
import { prepareCompound } from "../prepare-compound.ts";
import { loadRDKit } from "../rdkit.ts";
import { drugCentralTargetIndex } from "./drugcentral-target-index.ts";
import { transferTargets } from "./nearest-drug-targets.ts";
import {
  DRUGS_PER_TARGET,
  HYPOTHESIS_WORDING,
  OFFTARGET_SCREENING_ID,
  offtargetScreening,
  TOP_TARGETS,
} from "./offtarget-screening.ts";

const PROPRANOLOL = "CC(C)NCC(O)COc1cccc2ccccc12";
// No DrugCentral drug shares enough of its Morgan bits (nearest: gabapentin, far below any floor of the grid).
const CYCLODODECANE = "C1CCCCCCCCCCC1";

describe("offtarget_screening", () => {
  it("a DrugCentral drug finds itself at Tanimoto 1: its own targets lead, each scored with the drugs carrying it, bounded in size", async () => {
    const rdkit = await loadRDKit();
    const finding = inOneThread(offtargetScreening).analyze(prepareCompound(rdkit, row(1, PROPRANOLOL)));
    assert.equal(finding.status, "assessed");
    assert.equal(finding.in_domain, true);
    assert.equal(finding.nearest_tanimoto, 1);
    // in domain, the drugs that lent the targets are named in targets (neighbours is left out: card size)
    assert.equal(finding.neighbours, null);
    assert.equal(finding.targets?.[0]?.drugs[0]?.drug, "propranolol");
    const { file } = drugCentralTargetIndex();
    const own = file.drugs.find((drug) => drug.name === "propranolol");
    const ownAccessions = new Set(own?.targets.map((t) => file.targets[t]?.accession));
    const targets = finding.targets ?? [];
    assert.ok(targets.length > 0 && targets.length <= TOP_TARGETS);
    assert.ok(ownAccessions.has(targets[0]?.accession), "the top target is one of propranolol's own");
    for (const [at, target] of targets.entries()) {
      assert.ok(target.drugs.length >= 1 && target.drugs.length <= DRUGS_PER_TARGET);
      // The rule: the score is the similarity of the most similar drug carrying the target.
      assert.equal(target.score, target.drugs[0]?.tanimoto);
      const next = targets[at + 1];
      if (next !== undefined) assert.ok(target.score >= next.score);
    }
    assert.match(finding.similar_drug_targets_hypothesis ?? "", /\(P\d|\(Q\d|\(O\d/);
    assert.match(finding.similar_drug_targets_hypothesis ?? "", /1\.00: propranolol/);
  });

  it("no DrugCentral drug at or above the floor: out_of_domain with the reason and the nearest drug, and no target either way", async () => {
    const rdkit = await loadRDKit();
    const finding = inOneThread(offtargetScreening).analyze(prepareCompound(rdkit, row(1, CYCLODODECANE)));
    const floor = drugCentralTargetIndex().file.validation.floor;
    assert.equal(finding.in_domain, false);
    assert.ok((finding.nearest_tanimoto ?? 1) < floor);
    assert.match(
      finding.reason ?? "",
      new RegExp(`^out_of_domain: no DrugCentral drug .* Tanimoto ≥ ${floor}`),
    );
    assert.equal(finding.targets, null);
    assert.equal(finding.similar_drug_targets_hypothesis, null);
    assert.equal(finding.neighbours?.length, 1);
  });

  it("outside the organic classes no transfer is made, and an unparseable row is not_assessed with every value null", async () => {
    const rdkit = await loadRDKit();
    const analyzer = inOneThread(offtargetScreening);
    const salt = analyzer.analyze(prepareCompound(rdkit, row(1, "[Na+].[Cl-]")));
    assert.equal(salt.in_domain, false);
    assert.match(salt.reason ?? "", /^out_of_domain: compound_class inorganic/);
    assert.equal(salt.targets, null);
    const broken = analyzer.analyze(prepareCompound(rdkit, row(2, "C1CC(notasmiles")));
    assert.equal(broken.status, "not_assessed");
    assert.equal(broken.evidence_id, `EID-${OFFTARGET_SCREENING_ID}-000002`);
    for (const key of [
      "in_domain",
      "nearest_tanimoto",
      "similar_drug_targets_hypothesis",
      "targets",
      "neighbours",
    ])
      assert.equal(broken[key as keyof typeof broken], null, key);
    const summary = analyzer.finish();
    assert.equal(summary.assessed, 1);
    assert.equal(summary.not_assessed, 1);
    assert.equal(summary.out_of_domain, 1);
    assert.equal(summary.in_domain, 0);
  });

  it("the transfer rule: the k most similar drugs at or above the floor lend their targets, scored by the most similar carrier, ties to more carriers", () => {
    // Query bits 0–9; drug similarities: a 1.0, b 0.8, c 0.8, d 0.5, e 0.1.
    const fp = (bits: number[]) => packBits(bits);
    const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);
    const set = fingerprintSet([
      fp(range(0, 10)), // a: 1.0
      fp(range(0, 8)), // b: 0.8
      fp(range(2, 10)), // c: 0.8
      fp(range(0, 5)), // d: 0.5
      fp([0, ...range(20, 29)]), // e: 1/19
    ]);
    const targets = [[7], [3, 5], [5], [9], [11]];
    const all = transferTargets(fp(range(0, 10)), targets, set, { floor: 0.3, neighbours: 3 });
    assert.deepEqual(
      all.neighbours.map((n) => n.index),
      [0, 1, 2],
    );
    assert.deepEqual(
      all.targets.map((t) => [t.target, t.score, t.support]),
      [
        [7, 1, 1],
        [5, 0.8, 2],
        [3, 0.8, 1],
      ],
    );
    const trainOnly = transferTargets(fp(range(0, 10)), targets, set, {
      floor: 0.3,
      neighbours: 3,
      include: (i) => i !== 0,
    });
    assert.deepEqual(
      trainOnly.targets.map((t) => t.target),
      [5, 3, 9],
    );
    const high = transferTargets(fp(range(0, 10)), targets, set, {
      floor: 0.9,
      neighbours: 3,
      include: (i) => i >= 3,
    });
    assert.deepEqual(high.targets, []);
    assert.equal(high.nearest?.index, 3);
  });

  it("the method card calls every target a hypothesis from similar drugs, cites the similarity principle and DrugCentral, and names the floor", () => {
    const card = offtargetScreening.method;
    assert.match(card.what, new RegExp(HYPOTHESIS_WORDING.replace(/[()]/g, "\\$&")));
    assert.match(card.what, new RegExp(`Tanimoto ≥ ${drugCentralTargetIndex().file.validation.floor}`));
    assert.match(card.limits, /hypothesis to test, never a measured activity/);
    assert.ok(card.citations.some((c) => c.startsWith("Johnson & Maggiora")));
    assert.ok(card.citations.some((c) => c.startsWith("Ursu et al.")));
    assert.ok(card.citations.some((c) => /DrugCentral 2023/.test(c)));
    assert.deepEqual(card.data, [
      "drugcentral-structures-approval-targets.csv.gz",
      "drugcentral-target-index.json",
    ]);
  });
});
