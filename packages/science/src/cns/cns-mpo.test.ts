import assert from "node:assert/strict";
import { test } from "node:test";
import { inOneThread } from "../define-module.ts";
import { prepareCompound } from "../prepare-compound.ts";
import { loadRDKit } from "../rdkit.ts";
import { cnsMpo, desirability } from "./cns-mpo.ts";
import { cnsPenetration, PKA_NOT_COMPUTED } from "./cns-penetration.ts";

test("desirabilities follow Wager et al.'s Figure 2 breakpoints: decreasing ramps and the TPSA hump", () => {
  assert.equal(desirability("clogp", 3), 1);
  assert.equal(desirability("clogp", 4), 0.5);
  assert.equal(desirability("clogp", 5), 0);
  assert.equal(desirability("clogd", 3), 0.5);
  assert.equal(desirability("mw", 430), 0.5);
  assert.equal(desirability("hbd", 0), 1);
  assert.equal(desirability("hbd", 2), 0.5);
  assert.equal(desirability("pka", 9), 0.5);
  assert.equal(desirability("tpsa", 10), 0);
  assert.equal(desirability("tpsa", 30), 0.5);
  assert.equal(desirability("tpsa", 60), 1);
  assert.equal(desirability("tpsa", 105), 0.5);
  assert.equal(desirability("tpsa", 130), 0);
});

test("a missing component widens the score into a range and leaves the threshold call open only when it would decide", () => {
  const all = {
    clogp: { value: 2 },
    clogd: { value: 1 },
    mw: { value: 300 },
    tpsa: { value: 50 },
    hbd: { value: 1 },
  };
  const complete = cnsMpo({ ...all, pka: { value: 7 } });
  assert.deepEqual(complete.score_range, [5.833, 5.833]);
  assert.equal(complete.meets_threshold, true);
  const noPka = cnsMpo({ ...all, pka: { value: null, reason: "none" } });
  assert.equal(noPka.max_known, 5);
  assert.deepEqual(noPka.score_range, [4.833, 5.833]);
  assert.equal(noPka.meets_threshold, true);
  assert.equal(noPka.terms.pka.reason, "none");
  const greasy = cnsMpo({
    clogp: { value: 6 },
    clogd: { value: 5 },
    mw: { value: 600 },
    tpsa: { value: 150 },
    hbd: { value: 4 },
    pka: { value: null },
  });
  assert.equal(greasy.meets_threshold, false);
  const edge = cnsMpo({ ...all, clogp: { value: 5 }, clogd: { value: 4 }, pka: { value: null } });
  assert.deepEqual(edge.score_range, [2.833, 3.833]);
  assert.equal(edge.meets_threshold, false);
  const open = cnsMpo({ ...all, clogp: { value: 4 }, clogd: { value: 3 }, pka: { value: null } });
  assert.deepEqual(open.score_range, [3.833, 4.833]);
  assert.equal(open.meets_threshold, null);
});

test("cns_penetration reports the MPO without pKa (saying why), BOILED-Egg, and the BBB and P-gp models or why not", async () => {
  const rdkit = await loadRDKit();
  const run = inOneThread(cnsPenetration);
  // Diazepam, a marketed CNS drug.
  const finding = run.analyze(
    prepareCompound(rdkit, {
      index: 0,
      line: 1,
      candidateId: "diazepam",
      name: null,
      smiles: "CN1C(=O)CN=C(c2ccccc2)c2cc(Cl)ccc21",
      metadata: {},
    }),
  );
  assert.equal(finding.status, "assessed");
  assert.equal(finding.cns_mpo?.terms.pka.value, null);
  assert.equal(finding.cns_mpo?.terms.pka.reason, PKA_NOT_COMPUTED);
  assert.equal(finding.cns_mpo?.max_known, finding.cns_mpo?.terms.clogd.value === null ? 4 : 5);
  assert.ok((finding.cns_mpo?.score_known ?? 0) >= 4, JSON.stringify(finding.cns_mpo));
  assert.equal(finding.boiled_egg_bbb, true);
  assert.ok(finding.bbb_model !== null || /not adopted/.test(finding.bbb_model_reason ?? ""));
  assert.ok(finding.pgp !== null || finding.pgp_reason !== null);
  const summary = run.finish();
  assert.equal(summary.assessed, 1);
  assert.equal(summary.mpo_meets_threshold, 1);
});
