import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { tdcFeatures } from "../admet/tdc-features.ts";
import { readDataFile } from "../data/read-data-file.ts";
import { decodeOnBits, packBits, tanimoto } from "../fingerprint/morgan.ts";
import { assignGroupFolds } from "../numeric/group-folds.ts";
import { mulberry32 } from "../numeric/seeded-shuffle.ts";
import { classDomainReason } from "../parent/class-domain.ts";
import { withParentMol } from "../parent/with-parent-mol.ts";
import { prepareCompound } from "../prepare-compound.ts";
import { loadRDKit } from "../rdkit.ts";
import { approvedDrugs } from "./approved-drugs.ts";
import { parseAqSolDbCsv } from "./aqsoldb-set.ts";
import { parseDelaneyCsv } from "./delaney-set.ts";
import { isDrugLike } from "./drug-like.ts";
import { publishedEsol } from "./esol.ts";
import { rmse, rSquared } from "./fit-regression.ts";
import { solubilityCv, solubilityDrugDomain } from "./solubility-cv.ts";
import { solubilityDescriptors } from "./solubility-descriptors.ts";
import {
  chooseDomainFloor,
  randomPairTanimoto,
  regressionFigures,
  SOLUBILITY_CANDIDATES,
  similarityCurve,
} from "./solubility-fit.ts";
import { predictMolSolubility, solubilityModels } from "./solubility-models.ts";
import { scaffoldGroup } from "./solubility-training-set.ts";

const sample = <T>(items: readonly T[], n: number, seed: number): T[] => {
  const random = mulberry32(seed);
  return Array.from({ length: n }, () => items[Math.floor(random() * items.length)] as T);
};
// the files keep six significant digits
const same = (a: number, b: number) => Math.abs(a - b) <= 1e-5 * Math.max(1, Math.abs(b));

describe("ESOL as published (the simple baseline)", () => {
  it("reproduces the paper's ESOL column on Delaney's 1,128 compounds (RMSE < 0.55, r² > 0.9: Crippen logP for Daylight clogP)", async () => {
    const rdkit = await loadRDKit();
    const set = parseDelaneyCsv(readDataFile("delaney-processed.csv"));
    assert.equal(set.length, 1128);
    const published = set.map((c) => {
      const mol = rdkit.get_mol(c.smiles);
      assert.ok(mol, c.name);
      try {
        return publishedEsol(solubilityDescriptors(rdkit, mol));
      } finally {
        mol.delete();
      }
    });
    const paper = set.map((c) => c.paperEsol);
    assert.ok(rmse(published, paper) < 0.55, `RMSE ${rmse(published, paper)}`);
    assert.ok(rSquared(published, paper) > 0.9, `r² ${rSquared(published, paper)}`);
  });
});

describe("solubility models on AqSolDB (issue 36 item 9)", () => {
  it("reads AqSolDB's 8,918 rows, names with quoted commas included", () => {
    const set = parseAqSolDbCsv(readDataFile("aqsoldb-train.csv"));
    assert.equal(set.length, 8918);
    const first = set[0];
    assert.equal(first?.name, "N,N,N-trimethyloctadecan-1-aminium bromide");
    assert.equal(first?.smiles, "[Br-].CCCCCCCCCCCCCCCCCC[N+](C)(C)C");
    assert.ok(same(first?.logS ?? 0, -3.616127121));
    assert.equal(first?.group, "G1");
    assert.equal(solubilityModels().training_set.rows, set.length);
  });

  it("every scaffold-CV figure of solubility-models.json recomputes from the out-of-fold predictions in solubility-cv.json", () => {
    const m = solubilityModels();
    const cv = solubilityCv();
    assert.deepEqual(cv.candidates, SOLUBILITY_CANDIDATES);
    assert.equal(cv.compounds.length, m.training_set.compounds);
    const y = cv.compounds.map((c) => c.log_s);
    const drugLike = cv.compounds.map((c) => c.drug_like);
    SOLUBILITY_CANDIDATES.forEach((name, at) => {
      const predicted = cv.compounds.map((c) => c.predicted[at] ?? Number.NaN);
      const recorded = m.scaffold_cv.figures[name];
      const all = regressionFigures(predicted, y);
      const dl = regressionFigures(
        predicted.filter((_, i) => drugLike[i]),
        y.filter((_, i) => drugLike[i]),
      );
      assert.ok(same(all.rmse, recorded.all.rmse), `${name}: ${all.rmse} vs ${recorded.all.rmse}`);
      assert.ok(same(all.r2, recorded.all.r2), name);
      assert.ok(same(dl.rmse, recorded.drug_like.rmse), `${name} drug-like: ${dl.rmse}`);
      assert.equal(dl.n, m.scaffold_cv.drug_like);
    });
    // the adopted model is the lowest RMSE and beats the constant predictor and ESOL, overall and drug-like
    const f = m.scaffold_cv.figures;
    for (const name of SOLUBILITY_CANDIDATES)
      assert.ok(f[m.adopted].all.rmse <= f[name].all.rmse, `${m.adopted} vs ${name}`);
    for (const baseline of ["constant", "esol_published_crippen"] as const) {
      assert.ok(f[m.adopted].all.rmse < f[baseline].all.rmse, baseline);
      assert.ok(f[m.adopted].drug_like.rmse < f[baseline].drug_like.rmse, `${baseline} drug-like`);
    }
  });

  it("the folds are grouped by scaffold with every acyclic parent in one group: they recompute from the groups and no group is on both sides", () => {
    const m = solubilityModels();
    const cv = solubilityCv();
    const groups = cv.compounds.map((c) => c.group);
    assert.deepEqual(
      assignGroupFolds(groups, m.scaffold_cv.folds, m.scaffold_cv.seed),
      cv.compounds.map((c) => c.fold),
    );
    const foldOf = new Map<string, number>();
    cv.compounds.forEach((c) => {
      assert.equal(foldOf.get(c.group) ?? c.fold, c.fold, c.group);
      foldOf.set(c.group, c.fold);
    });
    assert.equal(new Set(groups).size, m.scaffold_cv.groups);
    assert.equal(groups.filter((g) => g === "acyclic").length, m.scaffold_cv.acyclic);
    assert.ok(m.scaffold_cv.acyclic > 1000, "acyclic parents are many, and share one group");
  });

  it("the domain floor is where the out-of-fold error rises, never below random-pair similarity (recomputed)", () => {
    const m = solubilityModels();
    const cv = solubilityCv();
    const at = cv.candidates.indexOf(m.adopted);
    const curve = similarityCurve(
      cv.compounds.map((c) => c.nearest),
      cv.compounds.map((c) => c.predicted[at] ?? 0),
      cv.compounds.map((c) => c.log_s),
    );
    assert.deepEqual(curve, m.domain.curve);
    const fps = m.training_bits.map((bits) => packBits(decodeOnBits(bits)));
    const randomPair = randomPairTanimoto(fps, m.scaffold_cv.seed, tanimoto);
    assert.equal(randomPair, m.domain.random_pair_p99);
    const floor = chooseDomainFloor(curve, m.scaffold_cv.figures[m.adopted].all.rmse, randomPair);
    assert.equal(floor, m.domain.min_tanimoto);
    assert.ok(floor >= randomPair);
  });

  it("at least 70% of approved drugs under 700 Da get an in-domain log S (DrugCentral; recomputed, 40 drugs checked from structure)", async () => {
    const m = solubilityModels();
    const drugs = solubilityDrugDomain().drugs;
    const under700 = drugs.filter((d) => d.mw < 700);
    const [low, high] = m.domain.mw_range;
    const inDomain = under700.filter(
      (d) => d.in_class && d.nearest >= m.domain.min_tanimoto && d.mw >= low && d.mw <= high,
    ).length;
    assert.equal(under700.length, m.domain.approved_drugs.under_700);
    assert.equal(inDomain, m.domain.approved_drugs.in_domain);
    assert.ok(inDomain / under700.length >= 0.7, `${inDomain} of ${under700.length}`);
    const rdkit = await loadRDKit();
    const byId = new Map(approvedDrugs().map((d) => [d.struct_id, d]));
    assert.equal(byId.size, m.domain.approved_drugs.approved);
    for (const record of sample(drugs, 40, 36)) {
      const drug = byId.get(record.struct_id);
      assert.ok(drug);
      const compound = prepareCompound(rdkit, {
        index: 1,
        line: 2,
        candidateId: drug.struct_id,
        name: drug.name,
        smiles: drug.smiles,
        metadata: {},
      });
      assert.ok(compound.ok);
      assert.equal(classDomainReason(compound) === null, record.in_class, drug.name);
      if (!record.in_class) continue;
      const prediction = withParentMol(compound, (mol, kit) => predictMolSolubility(kit, mol));
      assert.ok(
        same(prediction.nearest_tanimoto, record.nearest),
        `${drug.name}: ${prediction.nearest_tanimoto}`,
      );
    }
  });

  it("200 training parents recompute from aqsoldb-train.csv: parent, scaffold group, drug-likeness, mean log S and ESOL's prediction", async () => {
    const rdkit = await loadRDKit();
    const data = parseAqSolDbCsv(readDataFile("aqsoldb-train.csv"));
    const cv = solubilityCv();
    const esolAt = cv.candidates.indexOf("esol_published_crippen");
    for (const c of sample(cv.compounds, 200, 9)) {
      const rows = c.rows.map((r) => data[r]);
      const f = tdcFeatures(rdkit, rows[0]?.smiles ?? "");
      assert.ok(f.ok);
      for (const r of rows.slice(1)) {
        const other = tdcFeatures(rdkit, r?.smiles ?? "");
        assert.ok(other.ok && other.parent === f.parent, "merged rows share a parent");
      }
      assert.equal(scaffoldGroup(f.scaffold), c.group);
      assert.ok(same(rows.reduce((s, r) => s + (r?.logS ?? 0), 0) / rows.length, c.log_s));
      const mol = rdkit.get_mol(f.parent);
      assert.ok(mol);
      try {
        assert.equal(isDrugLike(rdkit, mol), c.drug_like, f.parent);
        assert.ok(same(publishedEsol(solubilityDescriptors(rdkit, mol)), c.predicted[esolAt] ?? 0), f.parent);
      } finally {
        mol.delete();
      }
    }
  });

  it("a training parent is in the domain and predicted near its measured log S; cubane, like nothing in AqSolDB, is out of the domain", async () => {
    const rdkit = await loadRDKit();
    const read = (smiles: string) => {
      const mol = rdkit.get_mol(smiles);
      assert.ok(mol);
      try {
        return predictMolSolubility(rdkit, mol);
      } finally {
        mol.delete();
      }
    };
    // naphthalene: log S −4.31 in AqSolDB (G4: sources agree within 0.5–1 log unit)
    const naphthalene = read("c1ccc2ccccc2c1");
    assert.equal(naphthalene.nearest_tanimoto, 1);
    assert.equal(naphthalene.in_domain, true);
    assert.ok(Math.abs(naphthalene.value - -4.31) < 0.5, `${naphthalene.value}`);
    const cubane = read("C12C3C4C1C5C2C3C45");
    assert.ok(cubane.nearest_tanimoto < solubilityModels().domain.min_tanimoto);
    assert.equal(cubane.in_domain, false);
    // glucagon (29 residues, 3,483 Da) shares residues with training parents (Tanimoto above the
    // floor) but lies beyond the training parents' MW range
    const odd = JSON.parse(
      readFileSync(new URL("../../test/fixtures/odd-molecules.json", import.meta.url), "utf8"),
    ) as { compounds: { name: string; smiles: string }[] };
    const glucagon = read(odd.compounds.find((c) => c.name === "glucagon")?.smiles ?? "");
    assert.equal(glucagon.in_mw_range, false);
    assert.equal(glucagon.in_domain, false);
  });
});
