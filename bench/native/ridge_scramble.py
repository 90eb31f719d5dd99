"""Anchor of bench/y-scramble.bench.ts: the y-scramble protocol done with native RDKit and numpy
(BLAS): Morgan radius-2 2,048-bit fingerprints, ridge with an intercept (lambda 1) refitted in the
primal on each training fold of 5 x 5-fold CV, for the real activities and 100 permutations at
once (101 right-hand sides per solve). Timed inside Python (interpreter start-up not counted); the
bench runs it with one BLAS thread, as the TypeScript side has one.

argv: smiles file (one per line), activities file (one per line). Prints JSON {seconds, compounds}.
"""
import json
import sys
import time

import numpy as np
from rdkit import Chem
from rdkit.Chem import AllChem

smiles = open(sys.argv[1]).read().split("\n")
values = [float(v) for v in open(sys.argv[2]).read().split("\n")]
start = time.perf_counter()
mols = [(Chem.MolFromSmiles(s), v) for s, v in zip(smiles, values)]
mols = [(m, v) for m, v in mols if m is not None]  # rows native RDKit refuses are left out
y = np.array([v for _, v in mols])
x = np.zeros((len(mols), 2048))
for i, (m, _) in enumerate(mols):
    x[i, list(AllChem.GetMorganFingerprintAsBitVect(m, 2, nBits=2048).GetOnBits())] = 1
x = x[:, x.any(axis=0)]  # bits no compound sets get a zero coefficient: dropping them changes nothing
rng = np.random.default_rng(2345)
ys = np.column_stack([y] + [rng.permutation(y) for _ in range(100)])
q2 = np.zeros(ys.shape[1])
for r in range(5):
    folds = np.random.default_rng(2007 + r).permutation(len(y)) % 5
    pred = np.empty_like(ys)
    for f in range(5):
        tr, te = folds != f, folds == f
        xm, ym = x[tr].mean(axis=0), ys[tr].mean(axis=0)
        xc = x[tr] - xm
        beta = np.linalg.solve(xc.T @ xc + np.eye(x.shape[1]), xc.T @ (ys[tr] - ym))
        pred[te] = ym + (x[te] - xm) @ beta
    q2 += 1 - ((ys - pred) ** 2).sum(axis=0) / ((ys - ys.mean(axis=0)) ** 2).sum(axis=0)
print(json.dumps({"seconds": time.perf_counter() - start, "compounds": len(mols), "real_q2": q2[0] / 5}))
