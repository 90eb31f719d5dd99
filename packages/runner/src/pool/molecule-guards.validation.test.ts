import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { test } from "node:test";
import { countSmilesHeavyAtoms, exceedsLimits } from "./molecule-guards.ts";

const NCI = "/usr/share/RDKit/Data/NCI/first_5K.smi";
const LIMITS = { maxHeavyAtoms: 300, maxSmilesLength: 4000 };

test("heavy atoms counted from the SMILES text equal native RDKit's GetNumHeavyAtoms on NCI first_5K", () => {
  // Debian rdkit-data + python3-rdkit (installed by .ci/run): the reference is native RDKit.
  assert.ok(existsSync(NCI), `${NCI} missing: apt-get install rdkit-data`);
  const smiles = readFileSync(NCI, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => line.split(/\s+/)[0] as string);
  const script = `import sys
from rdkit import Chem, RDLogger
RDLogger.DisableLog("rdApp.*")
for line in sys.stdin:
    m = Chem.MolFromSmiles(line.strip())
    print(-1 if m is None else m.GetNumHeavyAtoms())`;
  const stdout = execFileSync("/usr/bin/python3", ["-c", script], {
    input: `${smiles.join("\n")}\n`,
    encoding: "utf8",
    maxBuffer: 16 * 1024 * 1024,
  });
  const native = stdout.trim().split("\n").map(Number);
  assert.equal(native.length, smiles.length);
  let compared = 0;
  const differing: string[] = [];
  smiles.forEach((text, at) => {
    if (native[at] === -1) return;
    compared++;
    if (countSmilesHeavyAtoms(text) !== native[at])
      differing.push(`${text}: ${countSmilesHeavyAtoms(text)} vs ${native[at]}`);
  });
  assert.ok(compared > 4900, `compared ${compared}`);
  assert.deepEqual(differing, []);
});

test("bracket hydrogens, isotopes and two-letter elements are counted as chemistry says", () => {
  assert.equal(countSmilesHeavyAtoms("[2H]C([2H])([2H])Cl"), 2);
  assert.equal(countSmilesHeavyAtoms("[H+].[Cl-]"), 1);
  assert.equal(countSmilesHeavyAtoms("[Hg]Br"), 2);
  assert.equal(countSmilesHeavyAtoms("c1cc[nH]c1"), 5);
  assert.equal(countSmilesHeavyAtoms("C%10CC%10"), 3);
});

test("a 1,000-carbon chain and a 900-atom PEG exceed the default limit and say which limit", () => {
  assert.match(exceedsLimits("C".repeat(1000), LIMITS) ?? "", /1000 heavy atoms, over the limit of 300/);
  assert.match(exceedsLimits(`O${"CCO".repeat(300)}`, LIMITS) ?? "", /901 heavy atoms/);
  assert.match(exceedsLimits("C".repeat(4001), LIMITS) ?? "", /4001 characters, over the limit of 4000/);
  assert.equal(exceedsLimits("CC(=O)Oc1ccccc1C(=O)O", LIMITS), null);
});
