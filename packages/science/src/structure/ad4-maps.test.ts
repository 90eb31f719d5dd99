import assert from "node:assert/strict";
import { test } from "node:test";
import { ad4GridParameterFile, hasNoPartialCharges, receptorAtomTypes } from "./ad4-maps.ts";

const PDBQT = [
  "ATOM      1  N   VAL A   1      16.052  41.019  15.465  0.00  0.00    +0.386 N ",
  "ATOM      2  H   VAL A   1      15.243  40.476  16.160  0.00  0.00    -0.089 HD",
  "ATOM      3  CA  VAL A   1      16.690  40.220  14.836  0.00  0.00     0.180 C ",
  "ATOM      4  OG1 THR A   2      16.690  40.220  14.836  0.00  0.00    -0.390 OA",
].join("\n");

test("the grid parameter file covers the docking box with an even point count per axis and one map per ligand type", () => {
  const gpf = ad4GridParameterFile(receptorAtomTypes(PDBQT), {
    center: [-3.084, 27.777, 2.732],
    size: [15.854, 19.37, 15],
    source: "reference_ligand",
  });
  // 15.854 / 0.375 = 42.3 -> 44; 19.37 / 0.375 = 51.7 -> 52; 15 / 0.375 = 40.
  assert.match(gpf, /^npts 44 52 40$/m);
  assert.match(gpf, /^receptor_types C HD N OA$/m);
  assert.match(gpf, /^gridcenter -3\.084 27\.777 2\.732$/m);
  assert.match(gpf, /^map receptor\.Cl\.map$/m);
  assert.match(gpf, /^elecmap receptor\.e\.map$/m);
  assert.match(gpf, /^dsolvmap receptor\.d\.map$/m);
  // AutoGrid 4.2.6 is compiled for at most 16 maps: the ligand types plus e and d must fit.
  assert.ok((gpf.match(/^(map|elecmap|dsolvmap) /gm) ?? []).length <= 16);
});

test("a receptor whose charges are all zero is recognised (AD4's electrostatics would be empty)", () => {
  assert.equal(hasNoPartialCharges(PDBQT), false);
  assert.equal(
    hasNoPartialCharges(
      PDBQT.split("\n")
        .map((line) => `${line.slice(0, 70)} 0.000${line.slice(76)}`)
        .join("\n"),
    ),
    true,
  );
});
