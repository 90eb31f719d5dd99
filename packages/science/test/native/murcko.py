"""Native reference for Murcko scaffolds: rdkit.Chem.Scaffolds.MurckoScaffold.MurckoScaffoldSmiles
(Bemis & Murcko 1996, as RDKit implements it) per NCI molecule. Prints {"<nci id>": "<scaffold SMILES>"}.
"""
import json
import sys

from rdkit import Chem, RDLogger
from rdkit.Chem.Scaffolds import MurckoScaffold

RDLogger.DisableLog("rdApp.*")
out = {}
for line in open(sys.argv[1]):
    parts = line.split()
    if len(parts) < 2:
        continue
    mol = Chem.MolFromSmiles(parts[0])
    if mol is None:
        continue
    try:
        out[parts[1]] = MurckoScaffold.MurckoScaffoldSmiles(mol=mol)
    except Exception as error:  # an unusual valence after the cut: recorded, compared as a failure
        out[parts[1]] = None
print(json.dumps(out))
