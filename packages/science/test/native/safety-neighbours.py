"""Native reference for target_biology_risk's nearest DrugCentral drugs.

argv[1]: DrugCentral CSV (.csv.gz; struct_id, SMILES); argv[2]: JSON list of the indexed struct ids;
argv[3]: JSON list of query SMILES. Parents as the ChEMBL pipeline makes them with native RDKit
(rdMolStandardize LargestFragmentChooser, then Uncharger), Morgan radius 2, 2,048 bits
(GetMorganFingerprintAsBitVect), Tanimoto by DataStructs. Prints {"<query>": [[struct_id, tanimoto], x3]}.
"""
import csv
import gzip
import json
import sys

from rdkit import Chem, DataStructs, RDLogger
from rdkit.Chem import AllChem
from rdkit.Chem.MolStandardize import rdMolStandardize

RDLogger.DisableLog("rdApp.*")
CHOOSER = rdMolStandardize.LargestFragmentChooser()
UNCHARGER = rdMolStandardize.Uncharger()


def fingerprint(smiles):
    mol = UNCHARGER.uncharge(CHOOSER.choose(Chem.MolFromSmiles(smiles)))
    return AllChem.GetMorganFingerprintAsBitVect(mol, 2, nBits=2048)


indexed = set(json.loads(sys.argv[2]))
ids, fps = [], []
with gzip.open(sys.argv[1], "rt") as handle:
    for record in csv.DictReader(handle):
        if int(record["struct_id"]) in indexed:
            ids.append(int(record["struct_id"]))
            fps.append(fingerprint(record["SMILES"]))

out = {}
for smiles in json.loads(sys.argv[3]):
    sims = DataStructs.BulkTanimotoSimilarity(fingerprint(smiles), fps)
    ranked = sorted(zip(ids, sims), key=lambda pair: -pair[1])[:3]
    out[smiles] = [[struct_id, sim] for struct_id, sim in ranked]
print(json.dumps(out))
