import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { chemblSeriesRows, SERIES_ACT, SERIES_SMI } from "../../test/support/chembl-series.ts";
import { assertNativeInCi, nativeMissing, runNative } from "../../test/support/native-rdkit.ts";
import type { CompoundRow } from "../compound-row.ts";
import { inOneThread } from "../define-module.ts";
import { prepareCompound } from "../prepare-compound.ts";
import { loadRDKit, type RDKit } from "../rdkit.ts";
import { activityCliffs } from "./activity-cliffs.ts";
import { matchedPairs, transformationStats } from "./matched-pairs.ts";
import { assessSar, heavyAtoms, singleCuts } from "./sar-assessment.ts";
import type { SarCompound } from "./sar-compound.ts";
import { sarExplorer } from "./sar-explorer.ts";

const N = 120;

function canonical(rdkit: RDKit, smiles: string): string {
  const mol = rdkit.get_mol(smiles);
  if (mol === null || !mol.is_valid()) assert.fail(`RDKit does not parse ${smiles}`);
  try {
    return mol.get_smiles();
  } finally {
    mol.delete();
  }
}

function measured(id: string, p: number, cuts: [string, string, number][], bits: number[] = []): SarCompound {
  return {
    index: 0,
    candidate_id: id,
    murcko_scaffold: null,
    activities: { a: p },
    morgan_on_bits: bits,
    cuts: cuts.map(([context, variable, heavy]) => ({ context, variable, context_heavy_atoms: heavy })),
  };
}

describe("sar_explorer: scaffold series, matched pairs (Hussain & Rea 2010), SALI (Guha & Van Drie 2008)", () => {
  it("a pair is two compounds sharing a context with different variable parts; the largest shared context wins", () => {
    const compounds = [
      measured("A", 6, [
        ["c1ccc([*:1])cc1", "C[*:1]", 6],
        ["C[*:1]", "c1ccc([*:1])cc1", 1],
      ]),
      measured("B", 7.5, [
        ["c1ccc([*:1])cc1", "Cl[*:1]", 6],
        ["Cl[*:1]", "c1ccc([*:1])cc1", 1],
      ]),
      measured("C", 5, [
        ["c1ccc([*:1])cc1", "C[*:1]", 6],
        ["C[*:1]", "c1ccc([*:1])cc1", 1],
      ]),
    ];
    const { pairs, truncated } = matchedPairs(compounds, "a");
    assert.equal(truncated, false);
    // Bounded: past the cap no new pair is formed, and the result says so.
    const capped = matchedPairs(compounds, "a", 1);
    assert.deepEqual([capped.pairs.length, capped.truncated], [1, true]);
    // A and C share both context and variable: no transformation, no pair.
    assert.deepEqual(
      pairs.map((p) => [p.from_id, p.to_id, p.transformation, p.delta_p]),
      [
        ["B", "C", "Cl[*:1]>>C[*:1]", -2.5],
        ["A", "B", "C[*:1]>>Cl[*:1]", 1.5],
      ],
    );
    assert.deepEqual(transformationStats(pairs), [
      {
        assay_id: "a",
        transformation: "C[*:1]>>Cl[*:1]",
        pairs: 2,
        mean_delta_p: 2,
        min_delta_p: 1.5,
        max_delta_p: 2.5,
      },
    ]);
  });

  it("heavy atoms of a cut part: dummies and hydrogens are not counted, two-letter symbols are one atom", () => {
    assert.equal(heavyAtoms("Cl[*:1]"), 1);
    assert.equal(heavyAtoms("O=S(=O)(Nc1ccc[nH]1)[*:1]"), 9);
    assert.equal(heavyAtoms("[2H]C([2H])([2H])[*:1]"), 1);
    assert.equal(heavyAtoms("Br[Hg][*:1]"), 2);
  });

  it("SALI is |Δp| / (1 − Tanimoto); identical fingerprints are listed apart, never divided by zero", () => {
    // {0,1,2,3} vs {0,1,2}: Tanimoto 3/4; {0,1,2,3} vs itself: identical.
    const scan = activityCliffs(
      [
        measured("A", 6, [], [0, 1, 2, 3]),
        measured("B", 7, [], [0, 1, 2]),
        measured("C", 8, [], [0, 1, 2, 3]),
      ],
      "a",
      10,
    );
    assert.equal(scan.pairs_scored, 3);
    assert.deepEqual(
      scan.top.map((c) => [c.a_id, c.b_id, c.tanimoto, c.sali]),
      [
        ["A", "B", 0.75, 4],
        ["B", "C", 0.75, 4],
      ],
    );
    assert.deepEqual(
      scan.identical_fingerprint_pairs.map((c) => [c.a_id, c.b_id, c.sali]),
      [["A", "C", null]],
    );
  });

  it("on CHEMBL2321810: every compound gets its scaffold; series, pairs and cliffs are bounded and cited", async () => {
    const rdkit = await loadRDKit();
    const analyzer = inOneThread(sarExplorer);
    const findings = chemblSeriesRows(60).map((row) => analyzer.analyze(prepareCompound(rdkit, row)));
    assert.ok(findings.every((f) => f.status === "assessed" && f.murcko_scaffold !== null));
    const summary = analyzer.finish();
    assert.equal(summary.with_activities, 60);
    assert.equal(summary.pairing.considered, 60);
    const series = summary.scaffold_series;
    assert.ok(series.top.reduce((n, s) => n + s.compounds, 0) <= 60);
    assert.ok((series.top[0]?.compounds ?? 0) > 1, "no scaffold shared by two compounds of one series");
    assert.ok(series.top.length <= 25 && series.total === series.top.length + series.more);
    const assay = summary.per_assay[0];
    assert.ok(assay && assay.matched_pairs.total > 0, "no matched pair in 60 compounds of one series");
    assert.ok(assay.matched_pairs.top.length <= 50);
    assert.equal(assay.activity_cliffs.pairs_scored, (60 * 59) / 2);
    assert.match(summary.method.citations.join(" "), /Hussain & Rea/);
    assert.match(summary.method.citations.join(" "), /Guha & Van Drie/);
    // No cuttable bond (RDKit then returns no fragment lists at all): no cuts, no crash.
    const phthalide = rdkit.get_mol("O=C1OCC2=C1C=CC=C2");
    assert.ok(phthalide);
    assert.deepEqual(singleCuts(rdkit, phthalide), []);
    phthalide.delete();
    // A compound without activities gets a scaffold and nothing to pair.
    const loneCompound = prepareCompound(rdkit, {
      ...chemblSeriesRows(1)[0],
      activities: undefined,
    } as CompoundRow);
    assert.ok(loneCompound.ok);
    const lone = assessSar(loneCompound);
    assert.equal(lone.pairing, null);
    assert.equal(lone.finding.activities, null);
  });

  assertNativeInCi();
  it(`single cuts identical to native rdMMPA.FragmentMol(maxCuts=1), SALI to native, on ${N} CHEMBL2321810 compounds`, {
    skip: nativeMissing ?? false,
  }, async () => {
    const rdkit = await loadRDKit();
    const native = runNative<{ cuts: Record<string, string[]>; sali: [string, string, number | null][] }>(
      "sar.py",
      [SERIES_SMI, SERIES_ACT, String(N)],
    );
    const rows = chemblSeriesRows(N);
    const compounds: SarCompound[] = [];
    let cutsCompared = 0;
    for (const row of rows) {
      const compound = prepareCompound(rdkit, row);
      assert.ok(compound.ok, row.candidateId);
      const assessed = assessSar(compound).pairing;
      assert.ok(assessed, row.candidateId);
      compounds.push(assessed);
      const mol = rdkit.get_mol(row.smiles);
      assert.ok(mol);
      let ours: string[];
      try {
        const cuts = singleCuts(rdkit, mol);
        for (const cut of cuts) {
          const piece = rdkit.get_mol(cut.context);
          const heavy = JSON.parse(piece?.get_descriptors() ?? "{}").NumHeavyAtoms;
          piece?.delete();
          assert.equal(cut.context_heavy_atoms, heavy, cut.context);
        }
        for (const cut of cuts) assert.ok(heavyAtoms(cut.variable) <= cut.context_heavy_atoms, cut.variable);
        ours = [...new Set(cuts.map((cut) => [cut.context, cut.variable].sort().join(".")))].sort();
      } finally {
        mol.delete();
      }
      const expected = (native.cuts[row.candidateId] ?? [])
        .map((chains) =>
          chains
            .split(".")
            .map((piece) => canonical(rdkit, piece))
            .sort()
            .join("."),
        )
        .sort();
      assert.deepEqual(ours, expected, row.candidateId);
      cutsCompared += ours.length;
    }
    assert.ok(cutsCompared > N * 5, `only ${cutsCompared} cuts`);
    // SALI: our top 25 pairs are native's top 25, with the same values (3 decimals).
    const nativeTop = native.sali
      .filter((entry): entry is [string, string, number] => entry[2] !== null)
      .sort((x, y) => y[2] - x[2])
      .slice(0, 25);
    const ours = activityCliffs(compounds, "assay", 25).top;
    assert.deepEqual(
      ours.map((c) => c.sali),
      nativeTop.map((entry) => Math.round(entry[2] * 1000) / 1000),
    );
    // The same pairs, except where a tie at the 25th value lets either side pick another.
    const r3 = (x: number) => Math.round(x * 1000) / 1000;
    const last = r3(nativeTop[nativeTop.length - 1]?.[2] ?? 0);
    const key = (a: string, b: string) => [a, b].sort().join("|");
    assert.deepEqual(
      new Set(ours.filter((c) => (c.sali ?? 0) > last).map((c) => key(c.a_id, c.b_id))),
      new Set(nativeTop.filter((entry) => r3(entry[2]) > last).map(([a, b]) => key(a, b))),
    );
  });
});
