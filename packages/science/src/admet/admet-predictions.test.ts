import assert from "node:assert/strict";
import { test } from "node:test";
import { row } from "../../test/support/compound-row.ts";
import { inOneThread } from "../define-module.ts";
import { prepareCompound } from "../prepare-compound.ts";
import { loadRDKit } from "../rdkit.ts";
import { admetPredictions } from "./admet-predictions.ts";

test("a compound gets every agreed key: QED, BOILED-Egg, six rule sets, Abbott score, log Kp and the radar", async () => {
  const rdkit = await loadRDKit();
  const analyzer = inOneThread(admetPredictions);
  // Caffeine as its hydrochloride: the chloride is stripped. WLOGP −1.03 lies below the yolk, so
  // BOILED-Egg calls it absorbed but not brain-penetrant (a known false negative of the method).
  const f = analyzer.analyze(prepareCompound(rdkit, row(1, "Cn1cnc2c1c(=O)n(C)c(=O)n2C.Cl")));
  assert.equal(f.status, "assessed");
  assert.equal(f.mw, 194.194);
  // No S or P: the two TPSAs agree.
  assert.equal(f.tpsa_sp, f.tpsa);
  assert.ok(f.qed !== null && f.qed > 0 && f.qed < 1);
  assert.ok(f.boiled_egg !== null);
  const { pgp, ...egg } = f.boiled_egg;
  assert.deepEqual(egg, {
    gi_absorption: "high",
    bbb_permeant: false,
    region: "white",
    passive_region: "white",
    veto: null,
  });
  assert.ok(["inhibitor", "non_inhibitor", "unknown"].includes(pgp.call));
  assert.deepEqual(Object.keys(f.rules ?? {}).sort(), [
    "egan",
    "ghose",
    "lead_likeness",
    "lipinski",
    "muegge",
    "veber",
  ]);
  assert.equal(f.rules?.ghose.pass, false, "caffeine has 24 atoms but MW 194 and WLOGP −1.03 < −0.4");
  assert.equal(f.bioavailability_score, 0.55);
  assert.ok(f.log_kp_cm_s !== null && f.log_kp_cm_s < -6);
  assert.deepEqual(Object.keys(f.radar ?? {}), ["lipo", "size", "polar", "insolu", "insatu", "flex"]);
  assert.equal(f.radar?.lipo.in_range, false, "WLOGP −1.03 is below the radar's −0.7");
  assert.equal(f.radar?.polar.in_range, true);
  const summary = analyzer.finish();
  assert.equal(summary.gi_absorption_high, 1);
  assert.equal(summary.boiled_egg_vetoed, 0);
  assert.equal(summary.bbbp_validation.mcc, 0.4);
});

test("an acid is scored as an anion (Martin 2005): ibuprofen, TPSA 37 Å², gets 0.85", async () => {
  const rdkit = await loadRDKit();
  const f = inOneThread(admetPredictions).analyze(
    prepareCompound(rdkit, row(1, "CC(C)Cc1ccc(cc1)C(C)C(=O)O")),
  );
  assert.equal(f.bioavailability_score, 0.85);
});
