#!/usr/bin/python3
"""ProDy's ANM on the Cα atoms of each PDB file named, as the reference of dynamics_nma.

Usage: prody-anm.py FILE.pdb... ; prints JSON: per file the Cα count, the 20 lowest non-zero
eigenvalues and the square fluctuations from those modes (ProDy 2.3 defaults: cutoff 15 Å, γ 1).
"""
import json
import sys

import prody

prody.confProDy(verbosity="none")

out = {}
for path in sys.argv[1:]:
    structure = prody.parsePDB(path)
    calphas = structure.select("calpha")
    anm = prody.ANM(path)
    anm.buildHessian(calphas, cutoff=15.0, gamma=1.0)
    anm.calcModes(n_modes=20, zeros=False)
    out[path] = {
        "calphas": int(calphas.numAtoms()),
        "eigenvalues": [float(v) for v in anm.getEigvals()],
        "square_fluctuations": [float(v) for v in prody.calcSqFlucts(anm)],
        "prody": prody.__version__,
    }
json.dump(out, sys.stdout)
