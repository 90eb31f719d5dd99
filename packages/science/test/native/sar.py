"""Native reference for sar_explorer on the first N compounds of CHEMBL2321810: RDKit's
rdMMPA.FragmentMol single cuts per compound (Hussain & Rea 2010) and the SALI of every pair
(Guha & Van Drie 2008) on GetMorganFingerprintAsBitVect(radius 2, 2048 bits), written from the
published formula. Prints {"cuts": {id: [chains...]}, "sali": [[id_a, id_b, sali|null], ...]}.
"""
import json
import sys

from rdkit import Chem, DataStructs, RDLogger
from rdkit.Chem import AllChem, rdMMPA

RDLogger.DisableLog("rdApp.*")
smi_path, act_path, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
activity = {}
for line in open(act_path).read().splitlines()[1:]:
    name, value = line.split(",")
    activity[name] = float(value)
rows = []
for line in open(smi_path):
    parts = line.split()
    if len(parts) >= 2:
        rows.append((parts[0], parts[1]))
rows = rows[:n]
cuts, fps, ids = {}, [], []
for smiles, name in rows:
    mol = Chem.MolFromSmiles(smiles)
    cuts[name] = sorted(chains for _, chains in rdMMPA.FragmentMol(mol, maxCuts=1, resultsAsMols=False))
    fps.append(AllChem.GetMorganFingerprintAsBitVect(mol, 2, nBits=2048))
    ids.append(name)
sali = []
for i in range(len(ids)):
    for j in range(i + 1, len(ids)):
        sim = DataStructs.TanimotoSimilarity(fps[i], fps[j])
        delta = abs(activity[ids[i]] - activity[ids[j]])
        sali.append([ids[i], ids[j], None if sim == 1 else delta / (1 - sim)])
print(json.dumps({"cuts": cuts, "sali": sali}))
