import assert from "node:assert/strict";
import { test } from "node:test";
import { readDataFile } from "../data/read-data-file.ts";
import { binaryScores } from "../numeric/binary-scores.ts";
import { chooseParent } from "../parent/choose-parent.ts";
import { loadRDKit, parseSmiles } from "../rdkit.ts";
import { admetDescriptors } from "./admet-descriptors.ts";
import { BBBP_VALIDATION } from "./admet-predictions.ts";
import { boiledEgg } from "./boiled-egg.ts";

test("BOILED-Egg brain-access calls scored against BBBP's measured labels give the figures the method card states", async () => {
  const rdkit = await loadRDKit();
  const lines = readDataFile("bbbp.csv")
    .split(/\r?\n/)
    .slice(1)
    .filter((line) => line.trim() !== "");
  const calls: boolean[] = [];
  const labels: boolean[] = [];
  for (const line of lines) {
    const comma = line.lastIndexOf(",");
    const parsed = parseSmiles(rdkit, line.slice(0, comma));
    if (!("mol" in parsed)) continue;
    const parentSmiles = chooseParent(rdkit, parsed.mol).parent_smiles;
    parsed.mol.delete();
    const parent = rdkit.get_mol(parentSmiles);
    assert.ok(parent);
    const d = admetDescriptors(rdkit, parent);
    parent.delete();
    calls.push(boiledEgg(d.tpsa_sp, d.wlogp).bbb_permeant);
    labels.push(line.slice(comma + 1).trim() === "1");
  }
  const { accuracy, mcc } = binaryScores(calls, labels);
  console.log(
    `# BBBP: ${calls.length}/${lines.length} scored, accuracy ${accuracy.toFixed(3)}, MCC ${mcc.toFixed(3)}`,
  );
  assert.equal(lines.length, BBBP_VALIDATION.compounds);
  assert.equal(calls.length, BBBP_VALIDATION.scored);
  assert.equal(Number(accuracy.toFixed(3)), BBBP_VALIDATION.accuracy);
  assert.equal(Number(mcc.toFixed(3)), BBBP_VALIDATION.mcc);
  assert.ok(mcc > 0.2, "the yolk has some skill on BBBP");
});
