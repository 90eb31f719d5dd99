"""Native reference for the salt step: heavy atoms RDKit's SaltRemover strips per NCI molecule.

Uses the package's copy of RDKit's Salts.txt, so both sides apply the same definitions.
Prints {"<nci id>": stripped heavy atoms} for every multi-fragment molecule.
"""
import json
import sys

from rdkit import Chem, RDLogger
from rdkit.Chem.SaltRemover import SaltRemover

RDLogger.DisableLog("rdApp.*")
nci, salts = sys.argv[1], sys.argv[2]
remover = SaltRemover(defnFilename=salts)
out = {}
for line in open(nci):
    parts = line.split()
    if len(parts) < 2 or "." not in parts[0]:
        continue
    mol = Chem.MolFromSmiles(parts[0])
    if mol is None:
        continue
    stripped = remover.StripMol(mol, dontRemoveEverything=False)
    out[parts[1]] = mol.GetNumHeavyAtoms() - stripped.GetNumHeavyAtoms()
print(json.dumps(out))
