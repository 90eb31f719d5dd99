import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { assertGeneratedBlock } from "@svc/testing";
import { CHEMBL_SET_SIZE, chemblSet, chemblSmi } from "../../test/support/chembl-set.ts";
import { storedNative } from "../../test/support/native-oracles.ts";
import { assertNativeInCi, nativeMissing, runNativeOnInput } from "../../test/support/native-rdkit.ts";
import {
  assertNciInCi,
  eachParsedWithNative,
  NCI_5K,
  nciMissing,
  readNci,
} from "../../test/support/nci-set.ts";
import { loadRDKit } from "../rdkit.ts";
import { admetDescriptors } from "./admet-descriptors.ts";
import { EGG_TPSA_SP_SHIFT } from "./admet-predictions.ts";
import { ANION_SMARTS, abbottScore, isAnionic } from "./bioavailability-score.ts";
import { BOILED_EGG, boiledEgg } from "./boiled-egg.ts";
import { evaluateDrugLikeness, RULE_SETS } from "./drug-likeness-rules.ts";

const DOCS = new URL("../../../../docs/science.md", import.meta.url);
const n = (x: number) => x.toLocaleString("en-US");
const SOURCE = "packages/science/src/admet/admet-rules.validation.test.ts";

describe("drug-likeness rules, BOILED-Egg and Abbott score", () => {
  assertNciInCi();
  assertNativeInCi();
  it("every verdict equals an independent native-RDKit script with the same limits on NCI first_5K", {
    skip: nciMissing ?? false,
  }, async () => {
    const native = storedNative<NativeVerdicts>("admet-rules");
    const { compared, differ } = await compare(readNci(readFileSync(NCI_5K, "utf8")), native);
    assert.ok(compared >= 4900, `compared ${compared}`);
    console.log(`# NCI: compared ${compared}; differing: ${JSON.stringify(differ)}`);
    assert.deepEqual(differ, {});
    // No verdict differs (asserted just above), so every compared molecule agrees.
    assertGeneratedBlock(
      DOCS,
      "admet-rules-native",
      SOURCE,
      "- Every rule verdict, BOILED-Egg region and Abbott score equal to an independent native script " +
        `with the same limits on ${n(compared)}/${n(compared)} NCI molecules.`,
    );
  });

  it("BOILED-Egg regions identical to native CalcTPSA(includeSandP=True) with the paper's ellipses on 2,000/2,000 ChEMBL compounds (issue 24 item 4)", {
    skip: nativeMissing ?? false,
  }, async (t) => {
    const spec = writeSpec(t);
    const native = runNativeOnInput<Record<string, NativeVerdicts>>("admet-rules.py", chemblSmi(), [spec]);
    const { compared, differ } = await compare(chemblSet(), native);
    const moved = new Map<string, number>();
    for (const v of Object.values(native))
      if (v.region !== v.region_no)
        moved.set(`${v.region_no}→${v.region}`, (moved.get(`${v.region_no}→${v.region}`) ?? 0) + 1);
    const total = [...moved.values()].reduce((a, b) => a + b, 0);
    console.log(
      `# ChEMBL: compared ${compared}; differing: ${JSON.stringify(differ)}; regions moved by S and P: ${total} ` +
        `(${JSON.stringify(Object.fromEntries(moved))})`,
    );
    assert.equal(compared, CHEMBL_SET_SIZE);
    assert.deepEqual(differ, {});
    assert.deepEqual(Object.fromEntries(moved), EGG_TPSA_SP_SHIFT.moved, "the method card's figure");
    // No region differs (asserted above), so every compared compound agrees.
    assertGeneratedBlock(
      DOCS,
      "boiled-egg-tpsa-sp-native",
      SOURCE,
      "- BOILED-Egg regions equal to native `CalcTPSA(mol, includeSandP=True)` with the paper's ellipses on " +
        `**${n(compared)}/${n(compared)}** ChEMBL compounds (the first ${n(compared)} of the Lipophilicity set); ` +
        `the S and P terms move ${n(total)} of them to another region (counted below; NCI's ` +
        "4-(phenylsulfonyl)benzoic acid goes from yolk to white).",
    );
  });
});

type NativeVerdicts = Record<string, boolean | string | number>;

function writeSpec(t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), "svc-admet-rules-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const spec = join(dir, "spec.json");
  writeFileSync(spec, JSON.stringify({ rules: RULE_SETS, egg: BOILED_EGG, anion_smarts: ANION_SMARTS }));
  return spec;
}

/** Our verdicts beside native's per molecule: how many were compared, and the ids differing per key. */
async function compare(
  rows: [string, string][],
  native: Record<string, NativeVerdicts>,
): Promise<{ compared: number; differ: Record<string, string> }> {
  const rdkit = await loadRDKit();
  const differ = new Map<string, string[]>();
  const compared = eachParsedWithNative(rdkit, rows, native, (mol, expected, id) => {
    const d = admetDescriptors(rdkit, mol);
    const rules = evaluateDrugLikeness(d);
    const ours: NativeVerdicts = {
      ...Object.fromEntries(Object.entries(rules).map(([name, v]) => [name, v.pass])),
      region: boiledEgg(d.tpsa_sp, d.wlogp).region,
      region_no: boiledEgg(d.tpsa, d.wlogp).region,
      abbott: abbottScore(isAnionic(rdkit, mol), d.tpsa, rules.lipinski.pass),
    };
    for (const [key, value] of Object.entries(expected)) {
      const same = key === "tpsa_sp" ? Math.abs(d.tpsa_sp - Number(value)) < 1e-6 : ours[key] === value;
      if (!same) differ.set(key, [...(differ.get(key) ?? []), id]);
    }
  });
  return {
    compared,
    differ: Object.fromEntries([...differ].map(([key, ids]) => [key, `${ids.length}: ${ids.slice(0, 5)}`])),
  };
}
