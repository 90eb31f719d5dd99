import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { test } from "node:test";
import {
  countMolblockHeavyAtoms,
  countSmilesHeavyAtoms,
  exceedsLimits,
  molblockExceedsLimits,
} from "./molecule-guards.ts";

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

test("a molblock's heavy atoms are counted in V2000 and V3000 alike, deuterium as hydrogen, and an unreadable block counts 0", () => {
  // Methanol-d (CH3OD) with one explicit H and the D: 2 heavy atoms either way.
  const v2000 = [
    "methanol-d",
    "  hand",
    "",
    "  4  3  0  0  0  0  0  0  0  0999 V2000",
    "    0.0000    0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0",
    "    1.4000    0.0000    0.0000 O   0  0  0  0  0  0  0  0  0  0  0  0",
    "   -0.5000    0.9000    0.0000 H   0  0  0  0  0  0  0  0  0  0  0  0",
    "    1.8000    0.9000    0.0000 D   0  0  0  0  0  0  0  0  0  0  0  0",
    "  1  2  1  0",
    "  1  3  1  0",
    "  2  4  1  0",
    "M  END",
  ].join("\n");
  const v3000 = [
    "methanol-d",
    "  hand",
    "",
    "  0  0  0     0  0            999 V3000",
    "M  V30 BEGIN CTAB",
    "M  V30 COUNTS 4 3 0 0 0",
    "M  V30 BEGIN ATOM",
    "M  V30 1 C 0 0 0 0",
    "M  V30 2 O 1.4 0 0 0",
    "M  V30 3 H -0.5 0.9 0 0",
    "M  V30 4 D 1.8 0.9 0 0",
    "M  V30 END ATOM",
    "M  V30 BEGIN BOND",
    "M  V30 1 1 1 2",
    "M  V30 2 1 1 3",
    "M  V30 3 1 2 4",
    "M  V30 END BOND",
    "M  V30 END CTAB",
    "M  END",
  ].join("\n");
  assert.deepEqual([countMolblockHeavyAtoms(v2000), countMolblockHeavyAtoms(v3000)], [2, 2]);
  assert.equal(countMolblockHeavyAtoms("no counts line here"), 0);
  assert.match(
    molblockExceedsLimits(v3000, { ...LIMITS, maxHeavyAtoms: 1 }) ?? "",
    /^2 heavy atoms, over the limit of 1/,
  );
});
