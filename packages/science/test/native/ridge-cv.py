"""Reference for src/yscramble/ridge-cv.ts: native RDKit Morgan bits (radius 2, 2,048) and numpy's
closed-form primal ridge with an unpenalised intercept (Hoerl & Kennard 1970), fitted on each
training fold: beta = (Xc'Xc + lambda I)^-1 Xc'(y - ybar), Xc centred on the fold's means.

Input: a JSON file {"smiles": [...], "y": [...], "folds": [[fold per row], ...], "lambda": float}.
Output (stdout): {"bits": [[on bits per row]], "predictions": [[out-of-fold prediction per row], ...]}.
"""
import json
import sys

import numpy as np
from rdkit import Chem
from rdkit.Chem import AllChem

spec = json.load(open(sys.argv[1]))
rows = []
for smiles in spec["smiles"]:
    fp = AllChem.GetMorganFingerprintAsBitVect(Chem.MolFromSmiles(smiles), 2, nBits=2048)
    rows.append(list(fp.GetOnBits()))
x = np.zeros((len(rows), 2048))
for i, bits in enumerate(rows):
    x[i, bits] = 1.0
x = x[:, x.any(axis=0)]  # bits no row sets get a zero coefficient: dropping them changes nothing
y = np.asarray(spec["y"], dtype=float)
lam = float(spec["lambda"])
out = []
for folds in spec["folds"]:
    folds = np.asarray(folds)
    pred = np.empty(len(y))
    for f in np.unique(folds):
        train, test = folds != f, folds == f
        xm, ym = x[train].mean(axis=0), y[train].mean()
        xc = x[train] - xm
        beta = np.linalg.solve(xc.T @ xc + lam * np.eye(x.shape[1]), xc.T @ (y[train] - ym))
        pred[test] = ym + (x[test] - xm) @ beta
    out.append(pred.tolist())
json.dump({"bits": rows, "predictions": out}, sys.stdout)
