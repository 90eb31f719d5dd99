import assert from "node:assert/strict";
import { test } from "node:test";
import { ligandEfficiency } from "./ligand-efficiency.ts";
import { parseScoreOnly, parseVinaPoses } from "./vina-output.ts";

// Vina 1.2.3's --out format (two of nine models, atoms trimmed) and --score_only summary line.
const OUT = `MODEL 1
REMARK VINA RESULT:    -8.870      0.000      0.000
REMARK INTER + INTRA:         -11.118
ROOT
ATOM      1  N   UNL     1       5.131  34.639  18.710  1.00  0.00    -0.327 N
ENDROOT
TORSDOF 3
ENDMDL
MODEL 2
REMARK VINA RESULT:    -8.068      1.479      2.064
ROOT
ATOM      1  N   UNL     1       6.000  34.000  18.000  1.00  0.00    -0.327 N
ENDROOT
TORSDOF 3
ENDMDL
`;

test("every model of Vina's output is read: rank, score, RMSD bounds, and a PDBQT body without MODEL lines", () => {
  const poses = parseVinaPoses(OUT);
  assert.equal(poses.length, 2);
  assert.deepEqual(
    poses.map(({ mode, score, rmsdLowerBound, rmsdUpperBound }) => [
      mode,
      score,
      rmsdLowerBound,
      rmsdUpperBound,
    ]),
    [
      [1, -8.87, 0, 0],
      [2, -8.068, 1.479, 2.064],
    ],
  );
  assert.match(poses[0]?.pdbqt ?? "", /^REMARK VINA RESULT/);
  assert.doesNotMatch(poses[0]?.pdbqt ?? "", /MODEL|ENDMDL/);
  assert.deepEqual(parseVinaPoses("no models here"), []);
});

test("the score_only estimate is read from Vina's summary line", () => {
  assert.equal(
    parseScoreOnly("Estimated Free Energy of Binding   : -7.169 (kcal/mol) [=(1)+(2)+(3)+(4)]"),
    -7.169,
  );
  assert.equal(parseScoreOnly("ERROR: nothing"), null);
});

test("ligand efficiency is −score per heavy atom (Hopkins et al. 2004), null without heavy atoms", () => {
  assert.equal(ligandEfficiency(-8.87, 19), 0.467);
  assert.equal(ligandEfficiency(-5, 0), null);
});
