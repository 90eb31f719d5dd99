import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { assertGeneratedBlock } from "@svc/testing";
import { CHEMBL_SET_SIZE, chemblSet, chemblSmi } from "../../test/support/chembl-set.ts";
import { storedNative } from "../../test/support/native-oracles.ts";
import {
  assertNativeInCi,
  NATIVE_PYTHON,
  nativeMissing,
  runNativeOnInput,
} from "../../test/support/native-rdkit.ts";
import { assertNciInCi, NCI_5K, nciMissing, readNci } from "../../test/support/nci-set.ts";
import { saProfileOf } from "../../test/support/sa-profile-of.ts";
import { atomStereocentres } from "../parent/atom-stereocentres.ts";
import { loadRDKit, parseSmiles } from "../rdkit.ts";
import { FRAGMENT_SCORES_FILE } from "./fragment-scores.ts";

/** sa-score.py's row: Morgan id → count, sascorer.py's score, atoms, stereocentres, spiro, bridgehead, ring > 8. */
type NativeRow = [Record<string, number>, number, number, number, number, number, boolean];

const DOCS = new URL("../../../../docs/science.md", import.meta.url);
const SOURCE = "packages/science/src/synthesis/sa-score.validation.test.ts";
const n = (x: number) => x.toLocaleString("en-US");

/** A bound on `x` with one significant digit, rounded up (3.6e-15 → "4e-15"), for "within …". */
function bound(x: number): string {
  if (x === 0) return "0";
  const exponent = Math.floor(Math.log10(x));
  const mantissa = Math.ceil(x / 10 ** exponent - 1e-9);
  return mantissa === 10 ? `1e${exponent + 1}` : `${mantissa}e${exponent}`;
}

const SA_SOURCE = "/usr/share/RDKit/Contrib/SA_Score/fpscores.pkl.gz";

const ours = saProfileOf;

/** The same map with its keys in numeric order, so two maps compare as JSON. */
function sorted(ids: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(ids).sort((a, b) => Number(a[0]) - Number(b[0])));
}

describe("SA score (Ertl & Schuffenhauer 2009) over the TypeScript Morgan port", () => {
  assertNciInCi();
  assertNativeInCi();
  it("Morgan ids identical to native GetMorganFingerprint(mol, 2), and the SA score within 0.05 of sascorer.py on ≥ 99% of NCI first_5K", {
    skip: nciMissing ?? false,
  }, async () => {
    const native = storedNative<NativeRow>("sa-score");
    const idsDiffer: string[] = [];
    const scoreDiffers: string[] = [];
    const scoreDifferIds: string[] = [];
    const countsDiffer = new Map<string, string[]>();
    let compared = 0;
    let maxAgreeingDiff = 0;
    for (const [smiles, id] of readNci(readFileSync(NCI_5K, "utf8"))) {
      const expected = native[id];
      if (expected === undefined) continue;
      const result = await ours(smiles);
      if (result === null) continue;
      compared++;
      if (JSON.stringify(result.ids) !== JSON.stringify(sorted(expected[0]))) idsDiffer.push(`NCI-${id}`);
      const diff = Math.abs(result.profile.sa_score - expected[1]);
      if (diff < 0.05) maxAgreeingDiff = Math.max(maxAgreeingDiff, diff);
      else {
        scoreDiffers.push(`NCI-${id} (${result.profile.sa_score.toFixed(3)} vs ${expected[1].toFixed(3)})`);
        scoreDifferIds.push(`NCI-${id}`);
      }
      const p = result.profile;
      const counts = [p.heavy_atoms, p.stereocentres, p.spiro_atoms, p.bridgehead_atoms, p.has_macrocycle];
      ["heavy_atoms", "stereocentres", "spiro_atoms", "bridgehead_atoms", "has_macrocycle"].forEach(
        (key, i) => {
          if (counts[i] !== expected[i + 2])
            countsDiffer.set(key, [...(countsDiffer.get(key) ?? []), `NCI-${id}`]);
        },
      );
    }
    console.log(
      `SA on NCI first_5K: ${compared} compared; Morgan ids differ on ${idsDiffer.length}; SA |diff| ≥ 0.05 on ` +
        `${scoreDiffers.length} (${scoreDiffers.join(", ")}); largest agreeing diff ${maxAgreeingDiff.toExponential(1)}; ` +
        `counts differ: ${JSON.stringify(Object.fromEntries(countsDiffer))}`,
    );
    assert.ok(compared > 4_900, `only ${compared} molecules compared`);
    assert.deepEqual(idsDiffer, [], "Morgan ids must be identical on every molecule");
    assert.ok(scoreDiffers.length / compared <= 0.01, scoreDiffers.join(", "));
    for (const key of ["heavy_atoms", "spiro_atoms", "bridgehead_atoms", "has_macrocycle"])
      assert.equal(countsDiffer.get(key), undefined, `${key} differs: ${countsDiffer.get(key)?.join(", ")}`);
    const stereoDiffer = countsDiffer.get("stereocentres") ?? [];
    const others =
      scoreDifferIds.length === 0
        ? ""
        : ` The others (${scoreDifferIds.join(", ")})` +
          (scoreDifferIds.every((id) => stereoDiffer.includes(id))
            ? " have a different number of stereocentres in the two RDKit versions."
            : " differ by 0.05 or more.");
    assertGeneratedBlock(
      DOCS,
      "sa-score-nci-native",
      SOURCE,
      `- **Validation.** Against native RDKit 2022.09 on NCI first_5K (the ${n(compared)} molecules both toolkits ` +
        "parse): Morgan ids and counts identical to `GetMorganFingerprint(mol, 2)` on " +
        `**${n(compared - idsDiffer.length)}/${n(compared)}**; SA score equal to native \`sascorer.py\` ` +
        `(within ${bound(maxAgreeingDiff)}) on **${n(compared - scoreDifferIds.length)}/${n(compared)}**.${others}`,
    );
  });

  it("SA score equal to sascorer.py on 2,000/2,000 ChEMBL compounds, with one stereocentre count for every module (issue 24 item 5)", {
    skip: nativeMissing ?? false,
  }, async () => {
    const native = runNativeOnInput<Record<string, NativeRow>>("sa-score.py", chemblSmi());
    const rdkit = await loadRDKit();
    const differ: string[] = [];
    let compared = 0;
    let cyclohexanes = 0;
    for (const [smiles, id] of chemblSet()) {
      const expected = native[id];
      const result = await ours(smiles);
      assert.ok(expected && result, `${id}: parsed by both`);
      compared++;
      if (
        Math.abs(result.profile.sa_score - expected[1]) > 1e-9 ||
        result.profile.stereocentres !== expected[3]
      )
        differ.push(`${id} (${result.profile.sa_score} vs ${expected[1]})`);
      // RDKit WebAssembly's newer stereo perception flags the two ring atoms of a 1,4-disubstituted
      // cyclohexane; sascorer.py's (legacy) count does not, and neither does ours.
      const parsed = parseSmiles(rdkit, smiles);
      if ("mol" in parsed) {
        const tags = JSON.parse(parsed.mol.get_stereo_tags()) as { CIP_atoms?: unknown[] };
        if ((tags.CIP_atoms?.length ?? 0) !== atomStereocentres(parsed.mol).total) cyclohexanes++;
        parsed.mol.delete();
      }
    }
    console.log(
      `SA on the ChEMBL set: ${compared - differ.length}/${compared} equal to sascorer.py; ` +
        `${cyclohexanes} compounds where get_stereo_tags' count differs from sascorer.py's`,
    );
    assert.equal(compared, CHEMBL_SET_SIZE);
    assert.deepEqual(differ, []);
    assert.ok(cyclohexanes > 0, "the set still holds the compounds the newer perception counts differently");
    assertGeneratedBlock(
      DOCS,
      "sa-score-chembl-native",
      SOURCE,
      `- **ChEMBL.** On ${n(compared)} ChEMBL compounds (the first ${n(compared)} of the Lipophilicity set) ` +
        `the SA score equals \`sascorer.py\` on **${n(compared - differ.length)}/${n(compared)}** (within 1e-9, ` +
        "stereocentre counts identical): every module counts stereocentres once, as `sascorer.py` does " +
        "(`FindMolChiralCenters(includeUnassigned=True)`, RDKit 2022.09's legacy perception, read from RDKit's " +
        "`NumAtomStereoCenters`), not as RDKit WebAssembly's newer perception, which also counts the ring atoms " +
        `of a cis/trans-1,4-disubstituted cyclohexane (${n(cyclohexanes)} of those ${n(compared)}).`,
    );
  });

  it("isotope labels, charges and dative bonds hash as native RDKit does", {
    skip: nativeMissing ?? false,
  }, async () => {
    const fixtures = [
      "[2H]C([2H])([2H])Oc1ccccc1",
      "[13CH3]C(=O)O",
      "[14C]1=CC=CC=C1",
      "[18F]CCOc1ccc(cc1)C[C@H](N)C(=O)O",
      "[125I]c1ccc(O)cc1",
      "[11CH3]N1CCC[C@H]1c1cccnc1",
      "[18OH2]",
      "[32PH3]",
      "[1*]CC[3*]",
      "C[N+](C)(C)CC(=O)[O-]",
      "[NH3]->[Pt](<-[NH3])(Cl)Cl",
    ];
    const input = fixtures.map((smiles, i) => `${smiles} fixture${i}`).join("\n");
    const script = fileURLToPath(new URL("../../test/native/sa-score.py", import.meta.url));
    const native = JSON.parse(
      execFileSync(NATIVE_PYTHON, [script, "-"], { input, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 }),
    ) as Record<string, NativeRow>;
    for (const [i, smiles] of fixtures.entries()) {
      const expected = native[`fixture${i}`];
      const result = await ours(smiles);
      assert.ok(expected && result, `${smiles}: parsed by both`);
      assert.deepEqual(result.ids, sorted(expected[0]), smiles);
      assert.ok(Math.abs(result.profile.sa_score - expected[1]) < 1e-9, smiles);
    }
  });

  it("the checked-in fragment table is what the conversion script makes of fpscores.pkl.gz", {
    skip: nativeMissing ?? false,
  }, () => {
    const script = fileURLToPath(new URL("../../scripts/convert-sa-fragment-scores.py", import.meta.url));
    const regenerated = execFileSync(NATIVE_PYTHON, [script, SA_SOURCE, "-"], {
      maxBuffer: 64 * 1024 * 1024,
    });
    const checkedIn = readFileSync(new URL(`../../data/${FRAGMENT_SCORES_FILE}`, import.meta.url));
    assert.ok(
      gunzipSync(regenerated).equals(gunzipSync(checkedIn)),
      `regenerate data/${FRAGMENT_SCORES_FILE}`,
    );
  });
});
