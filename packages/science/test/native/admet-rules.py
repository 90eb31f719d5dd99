"""Native reference for admet_predictions' rules, written independently from the same published
limits: per NCI molecule the pass/fail of each rule set, the BOILED-Egg region and the Abbott score,
from native RDKit descriptors. The limits, ellipses and anion SMARTS arrive as JSON (argv[2]) so
both sides use the same numbers; the evaluation below is this script's own.

BOILED-Egg reads TPSA with polar S and P (CalcTPSA(includeSandP=True), as Daina & Zoete fitted
it); the rules and the Abbott score read TPSA over N and O (RDKit's default). Input: a file of
`smiles id` lines, or - for stdin.

Prints {"<id>": {"lipinski": bool, ..., "region": "yolk|white|grey", "abbott": float,
"tpsa_sp": float, "region_no": "yolk|white|grey"}}; region_no is the region on the N,O-only TPSA.
"""
import json
import sys

from rdkit import Chem, RDLogger
from rdkit.Chem import Crippen, Descriptors, Lipinski, rdMolDescriptors

RDLogger.DisableLog("rdApp.*")
spec = json.load(open(sys.argv[2]))
anions = [Chem.MolFromSmarts(s) for s in spec["anion_smarts"]]


def descriptors(mol):
    return {
        "mw": Descriptors.MolWt(mol),
        "wlogp": Crippen.MolLogP(mol),
        "mr": Crippen.MolMR(mol),
        "tpsa": rdMolDescriptors.CalcTPSA(mol),
        # force=True: CalcTPSA caches its first result on the molecule, whatever includeSandP said.
        "tpsa_sp": rdMolDescriptors.CalcTPSA(mol, force=True, includeSandP=True),
        "hbd": Lipinski.NHOHCount(mol),
        "hba": Lipinski.NOCount(mol),
        "rotatable_bonds": rdMolDescriptors.CalcNumRotatableBonds(mol, rdMolDescriptors.NumRotatableBondsOptions.Strict),
        "atoms": Chem.AddHs(mol).GetNumAtoms(),
        "rings": rdMolDescriptors.CalcNumRings(mol),
        "carbons": sum(1 for a in mol.GetAtoms() if a.GetAtomicNum() == 6),
        "heteroatoms": rdMolDescriptors.CalcNumHeteroatoms(mol),
    }


def inside(ellipse, x, y):
    (cx, cy), ((a, b), (_, c)) = ellipse["centre"], ellipse["form"]
    dx, dy = x - cx, y - cy
    return a * dx * dx + 2 * b * dx * dy + c * dy * dy <= 1


out = {}
for line in sys.stdin if sys.argv[1] == "-" else open(sys.argv[1]):
    parts = line.split()
    if len(parts) < 2:
        continue
    mol = Chem.MolFromSmiles(parts[0])
    if mol is None:
        continue
    d = descriptors(mol)
    verdicts = {}
    for name, rule in spec["rules"].items():
        broken = 0
        for key, _label, low, high in rule["limits"]:
            if low is not None and d[key] < low:
                broken += 1
            if high is not None and d[key] > high:
                broken += 1
        verdicts[name] = broken <= rule["allowed"]
    for key, tpsa in (("region", d["tpsa_sp"]), ("region_no", d["tpsa"])):
        yolk = inside(spec["egg"]["yolk"], tpsa, d["wlogp"])
        white = inside(spec["egg"]["white"], tpsa, d["wlogp"])
        verdicts[key] = "yolk" if yolk else "white" if white else "grey"
    verdicts["tpsa_sp"] = d["tpsa_sp"]
    if any(mol.HasSubstructMatch(q) for q in anions):
        verdicts["abbott"] = 0.85 if d["tpsa"] <= 75 else 0.56 if d["tpsa"] < 150 else 0.11
    else:
        verdicts["abbott"] = 0.55 if verdicts["lipinski"] else 0.17
    out[parts[1]] = verdicts
print(json.dumps(out))
