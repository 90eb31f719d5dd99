import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import {
  assertNativeInCi,
  NCI_5K,
  nativeMissing,
  readNci,
  runNative,
} from "../../test/support/native-rdkit.ts";
import { loadRDKit, parseSmiles } from "../rdkit.ts";
import { admetDescriptors } from "./admet-descriptors.ts";
import { ANION_SMARTS, abbottScore, isAnionic } from "./bioavailability-score.ts";
import { BOILED_EGG, boiledEgg } from "./boiled-egg.ts";
import { evaluateDrugLikeness, RULE_SETS } from "./drug-likeness-rules.ts";

describe("drug-likeness rules, BOILED-Egg and Abbott score", () => {
  it("imatinib passes Lipinski and Veber, fails lead-likeness with its broken limits as text", async () => {
    const rdkit = await loadRDKit();
    const parsed = parseSmiles(rdkit, "Cc1ccc(NC(=O)c2ccc(CN3CCN(C)CC3)cc2)cc1Nc1nccc(-c2cccnc2)n1");
    assert.ok("mol" in parsed);
    try {
      const rules = evaluateDrugLikeness(admetDescriptors(rdkit, parsed.mol));
      assert.equal(rules.lipinski.pass, true);
      assert.equal(rules.veber.pass, true);
      assert.equal(rules.lead_likeness.pass, false);
      assert.ok(
        rules.lead_likeness.violations.includes("MW 493.62 > 350"),
        rules.lead_likeness.violations.join(),
      );
    } finally {
      parsed.mol.delete();
    }
  });

  it("the BOILED-Egg ellipses hold their published centres and exclude far points", () => {
    assert.equal(boiledEgg(38.07, 3.18).region, "yolk");
    assert.equal(boiledEgg(120, 1).region, "white");
    assert.equal(boiledEgg(200, 0).region, "grey");
    assert.equal(boiledEgg(40, 9).gi_absorption, "low");
  });

  it("the Abbott score follows Martin 2005: anions by TPSA, others by the rule of five", () => {
    assert.equal(abbottScore(true, 60, true), 0.85);
    assert.equal(abbottScore(true, 100, true), 0.56);
    assert.equal(abbottScore(true, 150, true), 0.11);
    assert.equal(abbottScore(false, 60, true), 0.55);
    assert.equal(abbottScore(false, 60, false), 0.17);
  });

  assertNativeInCi();
  it("every verdict equals an independent native-RDKit script with the same limits on NCI first_5K", {
    skip: nativeMissing ?? false,
  }, async (t) => {
    const dir = mkdtempSync(join(tmpdir(), "svc-admet-rules-"));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const spec = join(dir, "spec.json");
    writeFileSync(spec, JSON.stringify({ rules: RULE_SETS, egg: BOILED_EGG, anion_smarts: ANION_SMARTS }));
    const native = runNative<Record<string, Record<string, boolean | string | number>>>("admet-rules.py", [
      NCI_5K,
      spec,
    ]);
    const rdkit = await loadRDKit();
    let compared = 0;
    const differ = new Map<string, string[]>();
    for (const [smiles, id] of readNci(readFileSync(NCI_5K, "utf8"))) {
      const expected = native[id];
      if (expected === undefined) continue;
      const parsed = parseSmiles(rdkit, smiles);
      if (!("mol" in parsed)) continue;
      try {
        const d = admetDescriptors(rdkit, parsed.mol);
        const rules = evaluateDrugLikeness(d);
        const ours: Record<string, boolean | string | number> = {
          ...Object.fromEntries(Object.entries(rules).map(([name, v]) => [name, v.pass])),
          region: boiledEgg(d.tpsa, d.wlogp).region,
          abbott: abbottScore(isAnionic(rdkit, parsed.mol), d.tpsa, rules.lipinski.pass),
        };
        compared++;
        for (const [key, value] of Object.entries(expected))
          if (ours[key] !== value) differ.set(key, [...(differ.get(key) ?? []), `NCI-${id}`]);
      } finally {
        parsed.mol.delete();
      }
    }
    assert.ok(compared >= 4900, `compared ${compared}`);
    const summary = Object.fromEntries(
      [...differ].map(([key, ids]) => [key, `${ids.length}: ${ids.slice(0, 5)}`]),
    );
    console.log(`# compared ${compared}; differing: ${JSON.stringify(summary)}`);
    assert.deepEqual(summary, {});
  });
});
