import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, it } from "node:test";
import { assertGeneratedBlock } from "@svc/testing";
import { readDataFile } from "../data/read-data-file.ts";
import { inOneThread } from "../define-module.ts";
import { packBits } from "../fingerprint/morgan.ts";
import { prepareCompound } from "../prepare-compound.ts";
import { loadRDKit } from "../rdkit.ts";
import { toxicityProfile } from "../toxicity/toxicity-profile.ts";
import { admetPredictions } from "./admet-predictions.ts";
import { cypAssessment } from "./cyp-assessment.ts";
import { labelCorrectionEffectTable } from "./label-correction-effect.ts";
import {
  modelSkill,
  reportedPerCompound,
  reportingDecision,
  SKILL_MARGIN,
  SKILL_MARGIN_RULE,
  skillOf,
} from "./skill-margin.ts";
import { parseTdc, TDC_DATASETS } from "./tdc-datasets.ts";
import { approvedDrugSmiles, tdcDomainEntry, tdcDomainFileOf } from "./tdc-domain.ts";
import { tdcDomainFile, tdcDomainTable, tdcDomainText } from "./tdc-domain-file.ts";
import { type TdcFeatures, tdcFeatures } from "./tdc-features.ts";
import { tdcFiguresTable } from "./tdc-figures-table.ts";
import { correctedTdcRows, correctionsOf } from "./tdc-label-corrections.ts";
import { aurocLowerBound, classifierFigures, regressorFigures } from "./tdc-metrics.ts";
import {
  readTdcModelFile,
  TDC_DOMAIN_BASIS,
  tdcDataset,
  tdcModel,
  tdcProbability,
  tdcValidation,
  tdcValue,
} from "./tdc-model.ts";
import type { ClassifierFigures, RegressorFigures } from "./tdc-model-file.ts";

// One featurisation per SMILES for the whole file: the figures and the domain floors read the same test rows.
const cache = new Map<string, TdcFeatures>();
async function featuriser(): Promise<(smiles: string) => TdcFeatures> {
  const rdkit = await loadRDKit();
  return (smiles: string) => {
    let f = cache.get(smiles);
    if (f === undefined) {
      f = tdcFeatures(rdkit, smiles);
      cache.set(smiles, f);
    }
    return f;
  };
}

describe("TDC models (cyp_assessment, hERG, Ames, DILI, P-gp, Caco-2, half-life): one pipeline", () => {
  it("each model file names its data file's sha256, and every data row's fate (split part, duplicate, conflict, refused) adds up", () => {
    for (const d of TDC_DATASETS) {
      const file = readTdcModelFile(d.key);
      const text = readDataFile(d.file);
      assert.equal(file.sha256, createHash("sha256").update(text).digest("hex"), d.key);
      const rows = parseTdc(text, d.column);
      const count = (codes: string) => [...file.row_split].filter((c) => codes.includes(c)).length;
      assert.equal(file.row_split.length, rows.length, d.key);
      assert.equal(file.curation.rows, rows.length);
      assert.equal(count("t"), file.split.train, `${d.key} train`);
      assert.equal(count("v"), file.split.valid, `${d.key} valid`);
      assert.equal(count("s"), file.split.test, `${d.key} test`);
      assert.equal(count("tvs"), file.curation.compounds);
      assert.equal(count("TVS"), file.curation.duplicates_merged, `${d.key} duplicates`);
      assert.equal(count("c"), file.curation.conflicting_dropped, `${d.key} conflicts`);
      assert.equal(count("x"), file.curation.refused);
      assert.equal(count("o"), file.curation.out_of_class);
      assert.equal(file.train_bits.length, file.split.train);
      // The balanced scaffold split: about 70/10/20 of the compounds, by whole scaffold groups.
      assert.ok(file.split.train <= 0.7 * file.curation.compounds + 1e-9, d.key);
      assert.ok(file.split.test >= 0.15 * file.curation.compounds, d.key);
    }
  });

  // Featurising the test compounds again (the runner's preparation, ~10 ms each) is the slow part:
  // the models are not retrained here; the figures are recomputed from the checked-in weights on
  // the checked-in split, so a changed feature, weight or split fails the test.
  it("every test figure recomputes from the SMILES, the checked-in split and the checked-in weights", async () => {
    const features = await featuriser();
    for (const d of TDC_DATASETS) {
      const file = readTdcModelFile(d.key);
      const rows = correctedTdcRows(d);
      const groups = new Map<string, { ys: number[]; bits: number[]; x: number[] }>();
      [...file.row_split].forEach((code, i) => {
        if (code !== "s" && code !== "S") return;
        const f = features(rows[i]?.smiles ?? "");
        assert.ok(f.ok, `${d.key} row ${i + 2}`);
        const g = groups.get(f.parent);
        if (g === undefined) groups.set(f.parent, { ys: [rows[i]?.y ?? 0], bits: f.bits, x: f.x });
        else g.ys.push(rows[i]?.y ?? 0);
      });
      assert.equal(groups.size, file.test.rows, `${d.key}: duplicates grouped by parent`);
      const test = [...groups.values()].map((g) => ({
        ...g,
        y: g.ys.reduce((a, b) => a + b, 0) / g.ys.length,
      }));
      if (d.task === "classification") {
        const labels = test.map((g) => (g.y >= 0.5 ? 1 : 0) as 0 | 1);
        const p = test.map((g) => tdcProbability(file, g.bits, g.x));
        const got = classifierFigures(p, labels, file.threshold ?? 0.5);
        const want = file.test.model as ClassifierFigures;
        console.log(
          `# ${d.key}: test AUROC ${got.auroc} (file ${want.auroc}), ADMET-AI ${d.admet_ai?.value}`,
        );
        for (const k of ["auroc", "auprc", "mcc", "ece", "brier"] as const)
          assert.ok(Math.abs(got[k] - want[k]) < 2e-3, `${d.key} ${k}: recorded ${want[k]}, now ${got[k]}`);
        assert.equal(labels.filter((y) => y === 1).length, file.test.positives);
        assert.equal(file.adopted, aurocLowerBound(got.auroc, labels) > 0.5, `${d.key}: the adoption rule`);
        assert.equal(
          skillOf(d.task, got, file.test.constant).passes,
          modelSkill(file).passes,
          `${d.key}: the skill margin`,
        );
        const conformal = file.conformal;
        assert.equal(conformal.kind, "mondrian");
        if (conformal.kind === "mondrian") {
          const covered = p.filter((v, j) =>
            labels[j] === 1 ? 1 - v <= conformal.q1 : v <= conformal.q0,
          ).length;
          assert.ok(Math.abs(covered / p.length - file.test.conformal_coverage) < 5e-3, `${d.key} coverage`);
        }
      } else {
        const v = test.map((g) => tdcValue(file, g.bits, g.x));
        const got = regressorFigures(
          v,
          test.map((g) => g.y),
        );
        const want = file.test.model as RegressorFigures;
        const constant = file.test.constant as RegressorFigures;
        console.log(`# ${d.key}: test MAE ${got.mae} (file ${want.mae}), training mean ${constant.mae}`);
        for (const k of ["rmse", "mae", "r2"] as const)
          assert.ok(Math.abs(got[k] - want[k]) < 2e-3, `${d.key} ${k}: recorded ${want[k]}, now ${got[k]}`);
        assert.equal(
          file.adopted,
          got.rmse < constant.rmse && got.mae < constant.mae,
          `${d.key}: the adoption rule`,
        );
        assert.equal(
          skillOf(d.task, got, constant).passes,
          modelSkill(file).passes,
          `${d.key}: the skill margin`,
        );
      }
    }
  });

  it("docs/science.md's TDC table is the one the checked-in model files give (UPDATE_SCIENCE_DOCS=1 rewrites it)", () => {
    assertGeneratedBlock(
      new URL("../../../../docs/science.md", import.meta.url),
      "tdc-figures",
      "packages/science/src/admet/tdc-models.validation.test.ts",
      tdcFiguresTable(),
    );
  });

  it("each output carries probability or value, a conformal set or interval, in_domain, the model id and the training sha256", async () => {
    const rdkit = await loadRDKit();
    const compound = (smiles: string) =>
      prepareCompound(rdkit, { index: 0, line: 1, candidateId: "C0", name: null, smiles, metadata: {} });
    // Fluvoxamine maleate: a strong CYP1A2 inhibitor given as a salt (the maleate is stripped).
    const fluvoxamine = compound("COCCCC/C(=N\\OCCN)c1ccc(cc1)C(F)(F)F.OC(=O)/C=C\\C(=O)O");
    const cyp = inOneThread(cypAssessment).analyze(fluvoxamine);
    assert.ok(cyp.isoforms !== null);
    for (const [isoform, gated] of Object.entries(cyp.isoforms)) {
      // Out of the isoform model's own domain no probability is a finding (issue 24 item 1): the
      // output says why, by which rule, and keeps the model's output for audit only.
      const out = "probability" in gated ? gated : gated.raw_out_of_domain;
      if (!("probability" in gated)) {
        assert.equal(gated.status, "out_of_domain");
        assert.equal(gated.domain_rule, out.domain_rule);
        assert.match(
          gated.domain_reason,
          /^out_of_domain: nearest training compound at Tanimoto 0\.\d+, below/,
        );
        assert.equal(out.in_domain, false);
      } else assert.equal(out.in_domain, true);
      const file = readTdcModelFile(isoform.toLowerCase());
      assert.equal(out.model_id, file.model_id);
      assert.equal(out.unit, "probability (0–1) of the positive label");
      assert.equal(out.training_sha256, file.sha256);
      assert.ok(out.probability >= 0 && out.probability <= 1);
      assert.equal(out.conformal_level, 0.9);
      assert.ok(out.prediction_set.length <= 2);
      assert.equal(
        out.domain_rule,
        `nearest training Tanimoto (Morgan r2) ≥ ${tdcDomainFile().models[isoform.toLowerCase()]?.min_tanimoto}, ${TDC_DOMAIN_BASIS}`,
      );
    }
    const isoforms = cyp.isoforms;
    assert.ok((cyp.flagged ?? []).every((i) => (isoforms[i] as { call: string }).call === "positive"));
    assert.ok((cyp.uncertain ?? []).every((i) => (isoforms[i] as { call: string }).call === "uncertain"));
    // Cisplatin is outside the organic classes: no probability is a finding, the raw one is kept.
    const cisplatin = inOneThread(cypAssessment).analyze(compound("N.N.Cl[Pt]Cl"));
    assert.ok(cisplatin.isoforms !== null && "raw_out_of_domain" in (cisplatin.isoforms.CYP3A4 ?? {}));
    assert.deepEqual(cisplatin.flagged, []);
    const tox = inOneThread(toxicityProfile).analyze(fluvoxamine);
    const admet = inOneThread(admetPredictions).analyze(fluvoxamine);
    for (const [finding, keys] of [
      [tox, ["herg", "ames", "dili"]],
      [admet, ["pgp", "caco2", "half_life"]],
    ] as const)
      for (const key of keys) {
        const file = readTdcModelFile(key);
        assert.equal(
          key in finding,
          reportedPerCompound(file),
          `${key}: present exactly when adopted and above the skill margin`,
        );
        const gated = (finding as unknown as Record<string, Record<string, unknown>>)[key];
        if (gated === undefined) continue;
        const out = (gated.raw_out_of_domain ?? gated) as Record<string, unknown>;
        assert.equal(out.model_id, file.model_id);
        assert.equal(out.training_sha256, file.sha256);
        assert.ok(file.task === "classification" ? "prediction_set" in out : "interval" in out);
        assert.equal(out.unit, tdcDataset(key).unit, `${key}: the value's unit`);
      }
  });

  it("half-life (test r² 0.07) is below the skill margin: absent from every compound's finding, its summary entry says why with its figures", async () => {
    const file = readTdcModelFile("half_life");
    const t = file.test.model as RegressorFigures;
    assert.ok(t.r2 < SKILL_MARGIN.min_r2);
    assert.equal(modelSkill(file).passes, false);
    const rdkit = await loadRDKit();
    const admet = inOneThread(admetPredictions);
    const finding = admet.analyze(
      prepareCompound(rdkit, {
        index: 0,
        line: 1,
        candidateId: "C0",
        name: null,
        smiles: "CC(=O)Nc1ccc(O)cc1",
        metadata: {},
      }),
    );
    assert.equal("half_life" in finding, false);
    const entry = admet.finish().tdc_models.half_life;
    assert.ok(entry !== undefined);
    assert.equal(entry.reported_per_compound, false);
    assert.match(
      entry.reporting,
      /^below the skill margin \(r² 0\.070 < 0\.30, MAE 0\.948 < the training mean's 1\.036\)/,
    );
    assert.equal(entry.unit, "ln(h)");
    // The classifiers clear AUROC 0.70 and Caco-2 r² 0.30: they stay (each model's verdict is its own).
    for (const d of TDC_DATASETS)
      assert.equal(tdcValidation(d).reported_per_compound, d.key !== "half_life", d.key);
  });

  it("each model's domain floor, its error-vs-similarity table and the approved drugs in domain recompute from the checked-in split, weights, training bits and DrugCentral (tdc-domain-floors.json)", async () => {
    const features = await featuriser();
    const approved = approvedDrugSmiles().map((smiles) => {
      const f = features(smiles);
      return f.ok ? packBits(f.bits) : null;
    });
    const entries = TDC_DATASETS.map((d) => tdcDomainEntry(d, features, approved));
    assert.deepEqual(tdcDomainFileOf(entries), tdcDomainFile());
    for (const e of entries) {
      // Never below random pairs; the deployed limit is the file's floor.
      assert.ok(e.min_tanimoto >= e.random_pair_p95, e.key);
      assert.equal(tdcModel(e.key).file.domain.min_tanimoto, e.min_tanimoto, e.key);
      console.log(
        `# ${e.key}: floor ${e.min_tanimoto} (was ${e.old_limit}), approved in domain ${e.approved.share}`,
      );
    }
  });

  it("docs/science.md's domain-floor table is the one tdc-domain-floors.json gives (UPDATE_SCIENCE_DOCS=1 rewrites it)", () => {
    assertGeneratedBlock(
      new URL("../../../../docs/science.md", import.meta.url),
      "tdc-domain-floors",
      "packages/science/src/admet/tdc-models.validation.test.ts",
      tdcDomainTable(),
    );
  });

  it("every model's method card states its domain floor with its error-vs-similarity bins and its skill-margin verdict with its figures", () => {
    const cards = [
      [cypAssessment.method, ["cyp1a2", "cyp2c9", "cyp2c19", "cyp2d6", "cyp3a4"]],
      [toxicityProfile.method, ["herg", "ames", "dili"]],
      [admetPredictions.method, ["pgp", "caco2", "half_life"]],
    ] as const;
    for (const [card, keys] of cards) {
      const text = `${card.what} ${card.validation} ${card.limits}`;
      assert.ok(text.includes(SKILL_MARGIN_RULE), keys.join());
      for (const key of keys) {
        assert.ok(card.limits.includes(tdcDomainText(key)), `${key}: floor and bins in the card`);
        assert.ok(
          card.validation.includes(reportingDecision(readTdcModelFile(key))),
          `${key}: skill verdict in the card`,
        );
      }
    }
  });
  it("hERG's output says what its label is, and the three cited corrections are the deployed model's: its corrected compounds' probabilities recompute from the checked-in weights", async () => {
    const features = await featuriser();
    const d = tdcDataset("herg");
    assert.match(d.what, /in-vitro hERG inhibition \(IC50/);
    assert.match(d.what, /not clinical QT/);
    const file = readTdcModelFile("herg");
    assert.equal(file.corrected_rows?.applied, true);
    const text = readDataFile(d.file);
    const shipped = parseTdc(text, d.column);
    const corrected = correctedTdcRows(d, text);
    const fixes = correctionsOf(d.file);
    assert.deepEqual(
      fixes.map((c) => c.drug_id),
      ["CAFFEINE", "FEXOFENADINE HYDROCHLORIDE", "CETIRIZINE"],
    );
    for (const c of fixes) {
      assert.equal(shipped[c.line - 2]?.y, c.from, `${c.drug_id}: TDC labels it ${c.from}`);
      assert.equal(corrected[c.line - 2]?.y, c.to, `${c.drug_id}: corrected to ${c.to}`);
      assert.match(c.source, /\d{4}, \d+, \d+/, `${c.drug_id}: a cited source`);
      const f = features(shipped[c.line - 2]?.smiles ?? "");
      assert.ok(f.ok);
      const p = tdcProbability(file, f.bits, f.x);
      assert.ok(Math.abs(p - (file.corrected_rows?.probabilities[c.drug_id] ?? -1)) < 1e-5, c.drug_id);
      // Trained on TDC's labels the model called each a blocker; on the corrected labels it does not.
      assert.ok((file.label_correction_effect?.probabilities[c.drug_id] ?? 0) >= 0.5, c.drug_id);
      assert.ok(p < 0.5, `${c.drug_id}: ${p}`);
    }
    // Only the corrected rows differ.
    assert.equal(shipped.filter((r, i) => r.y !== corrected[i]?.y).length, fixes.length);
    // A correction whose line no longer holds its compound is refused, not applied blindly.
    const moved = text.replace("CAFFEINE,", "CAFFEINE-MOVED,");
    assert.throws(() => correctedTdcRows(d, moved), /not CAFFEINE labelled 1/);
    const tox = inOneThread(toxicityProfile);
    const rdkit = await loadRDKit();
    const out = tox.analyze(
      prepareCompound(rdkit, {
        index: 0,
        line: 1,
        candidateId: "C0",
        name: null,
        smiles: "Cn1cnc2c1c(=O)n(C)c(=O)n2C",
        metadata: {},
      }),
    ).herg;
    assert.ok(out !== undefined && out !== null);
    const raw = "probability" in out ? out : out.raw_out_of_domain;
    assert.equal(raw.label, d.what);
    assert.ok(toxicityProfile.method.what.includes(d.what));
  });

  it("docs/science.md's hERG label-correction table is the one the model file gives (UPDATE_SCIENCE_DOCS=1 rewrites it)", () => {
    assertGeneratedBlock(
      new URL("../../../../docs/science.md", import.meta.url),
      "tdc-herg-label-corrections",
      "packages/science/src/admet/tdc-models.validation.test.ts",
      labelCorrectionEffectTable("herg"),
    );
  });
});
