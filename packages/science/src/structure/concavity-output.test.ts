import assert from "node:assert/strict";
import { test } from "node:test";
import { concavityGridSpacing, parseConcavityPockets } from "./concavity-output.ts";

// Records as concavity 0.1 (Debian) writes them with -print_grid_pdb 1 (copied from a run on 1s3v,
// the pocket number changed on the last two to make a second pocket).
const POCKET_FILE = [
  "HETATM    0 H    POC 1   0      -3.144  26.055  -3.678  3.72  3.72            ",
  "HETATM    1 H    POC 1   0      -3.144  26.055  -2.682  4.77  4.77            ",
  "HETATM    2 H    POC 1   1      -3.144  26.055  -1.686  4.50  4.50            ",
  "HETATM    3 H    POC 1   1      -3.144  27.051  -1.686  5.22  5.22            ",
  "HETATM    4 H    POC 1   0      -3.144  27.051  -0.690  4.89  4.89            ",
  "",
].join("\n");

test("a pocket file's grid points are grouped by the pocket number in columns 23–26, with coordinates and the grid value", () => {
  const parsed = parseConcavityPockets(POCKET_FILE);
  assert.equal(parsed.ok, true);
  if (!parsed.ok) return;
  assert.deepEqual(
    parsed.cavities.map((cavity) => [cavity.index, cavity.points.length]),
    [
      [0, 3],
      [1, 2],
    ],
  );
  assert.deepEqual(parsed.cavities[0]?.points[2], [-3.144, 27.051, -0.69]);
  assert.deepEqual(parsed.cavities[1]?.values, [4.5, 5.22]);
});

test("an empty pocket file is no cavity, not an error", () => {
  assert.deepEqual(parseConcavityPockets(""), { ok: true, cavities: [] });
});

test("a record that is not a pocket grid point is a reason naming its line, not a guessed point", () => {
  const broken = POCKET_FILE.replace("-2.682  4.77", "  x.xxx  4.77");
  const parsed = parseConcavityPockets(broken);
  assert.equal(parsed.ok, false);
  if (parsed.ok) return;
  assert.match(parsed.reason, /line 2/);
  const other = parseConcavityPockets("HETATM    0 O    HOH A   1       0.000   0.000   0.000  1.00  0.00");
  assert.equal(other.ok, false);
});

test("the grid spacing is the .dx header's diagonal delta, and null without one", () => {
  const header = [
    "object 1 class gridpositions counts 46 44 52",
    "origin -22.063635 15.101154 -20.606000",
    "delta 0.995788 0 0",
    "delta 0 0.995788 0",
    "delta 0 0 0.995788",
  ].join("\n");
  assert.equal(concavityGridSpacing(header), 0.995788);
  assert.equal(concavityGridSpacing("object 1 class gridpositions counts 46 44 52"), null);
});
