"""Native reference for QED: rdkit.Chem.QED (mean weights) and its eight properties per NCI
molecule. Prints {"<nci id>": [qed, MW, ALOGP, HBA, HBD, PSA, ROTB, AROM, ALERTS]}.
"""
import json
import sys

from rdkit import Chem, RDLogger
from rdkit.Chem import QED

RDLogger.DisableLog("rdApp.*")
out = {}
for line in open(sys.argv[1]):
    parts = line.split()
    if len(parts) < 2:
        continue
    mol = Chem.MolFromSmiles(parts[0])
    if mol is None:
        continue
    props = QED.properties(mol)
    out[parts[1]] = [QED.qed(mol, qedProperties=props)] + list(props)
print(json.dumps(out))
