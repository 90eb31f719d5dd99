import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { test } from "node:test";
import { projectPca } from "./pca.ts";

// The reference is NumPy's LAPACK eigensolver (numpy.linalg.eigh), run by Debian's python3 (the
// python3-rdkit dependency brings numpy). CI installs it; elsewhere the test is skipped.
const PYTHON = "/usr/bin/python3";
const NUMPY_PCA = `
import json, sys, numpy as np
x = np.array(json.load(sys.stdin), dtype=float)
sd = x.std(axis=0); sd[sd == 0] = 1
z = (x - x.mean(axis=0)) / sd
w, v = np.linalg.eigh(np.cov(z.T, bias=True))
order = np.argsort(-w)
out = []
for k in order[:2]:
    col = v[:, k]
    if col[np.argmax(np.abs(col))] < 0: col = -col
    out.append((z @ col).tolist())
print(json.dumps({"scores": list(map(list, zip(*out))), "explained": (w[order[:2]] / w.sum()).tolist()}))
`;

test("PCA scores and explained variance equal NumPy's on descriptor-like data", {
  skip: !existsSync(PYTHON) && !process.env.CI && "no python3",
}, () => {
  // Deterministic descriptor-like rows: MW, WLOGP, TPSA, HBD, HBA, rotatable bonds, Fsp3.
  const rows: number[][] = [];
  let seed = 7;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  for (let i = 0; i < 60; i++) {
    const mw = 150 + 500 * next();
    rows.push([
      mw,
      mw / 120 - 1 + next(),
      20 + 130 * next(),
      Math.floor(5 * next()),
      Math.floor(10 * next()),
      Math.floor(mw / 60),
      next(),
    ]);
  }
  const ours = projectPca(rows);
  const reference = JSON.parse(
    execFileSync(PYTHON, ["-c", NUMPY_PCA], { input: JSON.stringify(rows), encoding: "utf8" }),
  ) as { scores: number[][]; explained: number[] };
  for (const [at, [pc1, pc2]] of ours.scores.entries()) {
    const [refPc1, refPc2] = reference.scores[at] ?? [];
    assert.ok(Math.abs(pc1 - (refPc1 ?? Number.NaN)) < 1e-8, `pc1 of row ${at}`);
    assert.ok(Math.abs(pc2 - (refPc2 ?? Number.NaN)) < 1e-8, `pc2 of row ${at}`);
  }
  assert.deepEqual(
    ours.explained.map((share) => share.toFixed(10)),
    reference.explained.map((share) => share.toFixed(10)),
  );
});

test("PCA of a constant column or a single row stays finite", () => {
  const result = projectPca([
    [1, 5],
    [2, 5],
    [3, 5],
  ]);
  assert.ok(result.scores.every(([a, b]) => Number.isFinite(a) && Number.isFinite(b)));
  assert.deepEqual(projectPca([[1, 2]]).scores, [[0, 0]]);
});
