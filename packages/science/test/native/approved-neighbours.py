"""Native reference for clinical_precedent_prior's nearest approved drugs.

argv[1]: ClinTox CSV (smiles,FDA_APPROVED,CT_TOX); argv[2]: JSON list of query SMILES.
Morgan radius 2, 2,048 bits (GetMorganFingerprintAsBitVect), Tanimoto by DataStructs. Prints
{"refused": [rows native RDKit cannot parse], "<query>": [[clintox row (1-based), tanimoto], x3]}.
"""
import csv
import json
import sys

from rdkit import Chem, DataStructs, RDLogger
from rdkit.Chem import AllChem

RDLogger.DisableLog("rdApp.*")


def fingerprint(mol):
    return AllChem.GetMorganFingerprintAsBitVect(mol, 2, nBits=2048)


rows, fps, refused = [], [], []
with open(sys.argv[1]) as handle:
    for row, record in enumerate(csv.DictReader(handle), start=1):
        if record["FDA_APPROVED"].strip() != "1":
            continue
        mol = Chem.MolFromSmiles(record["smiles"])
        if mol is None:
            refused.append(row)
            continue
        rows.append(row)
        fps.append(fingerprint(mol))

out = {"refused": refused}
for smiles in json.loads(sys.argv[2]):
    sims = DataStructs.BulkTanimotoSimilarity(fingerprint(Chem.MolFromSmiles(smiles)), fps)
    ranked = sorted(zip(rows, sims), key=lambda pair: (-pair[1], pair[0]))[:3]
    out[smiles] = [[row, sim] for row, sim in ranked]
print(json.dumps(out))
