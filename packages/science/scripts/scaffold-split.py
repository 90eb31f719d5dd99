"""Writes data/scaffold-splits.json: MoleculeNet's scaffold split of BBBP, Lipophilicity and Tox21.

The split is the one Wu et al. (MoleculeNet, Chem. Sci. 2018, 9, 513, section 3.2 "Data splitting")
describe: every molecule is keyed by its Bemis-Murcko scaffold (Bemis & Murcko, J. Med. Chem. 1996,
39, 2887; RDKit's MurckoScaffoldSmiles without chirality, as DeepChem's ScaffoldSplitter calls it),
the scaffold groups are ordered largest first (ties: the group whose first row comes later goes
first, the order DeepChem's splitter uses) and whole groups are put in train until the next group
would pass 80% of the rows, then in valid until 90%, the rest in test. Deterministic: no seed.
The scaffold of the SMILES as the dataset gives it (salts included), as MoleculeNet computed it.
Rows native RDKit cannot parse are marked "x" and left out of the counts.

Run with Debian's python3-rdkit (the python3 first on PATH has no RDKit):
  /usr/bin/python3 packages/science/scripts/scaffold-split.py           # writes the data file
  /usr/bin/python3 packages/science/scripts/scaffold-split.py --stdout  # prints it (the test's route)
"""
import csv
import hashlib
import json
import os
import sys

from rdkit import Chem, RDLogger, rdBase
from rdkit.Chem.Scaffolds import MurckoScaffold

RDLogger.DisableLog("rdApp.*")
HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "data")
DATASETS = ["bbbp.csv", "lipo.csv", "tox21.csv"]
TRAIN, VALID = 0.8, 0.1


def scaffold_of(smiles):
    mol = Chem.MolFromSmiles(smiles)
    if mol is None:
        return None
    return MurckoScaffold.MurckoScaffoldSmiles(mol=mol, includeChirality=False)


def split(path):
    with open(path, "rb") as handle:
        raw = handle.read()
    rows = list(csv.reader(raw.decode("utf-8").splitlines()))[1:]
    rows = [row for row in rows if row]
    groups = {}
    for index, row in enumerate(rows):
        scaffold = scaffold_of(row[0])
        if scaffold is not None:
            groups.setdefault(scaffold, []).append(index)
    parsed = sum(len(members) for members in groups.values())
    ordered = sorted(groups.values(), key=lambda members: (len(members), members[0]), reverse=True)
    parts = ["x"] * len(rows)
    train_cut, valid_cut = TRAIN * parsed, (TRAIN + VALID) * parsed
    counts = {"t": 0, "v": 0, "s": 0}
    for members in ordered:
        if counts["t"] + len(members) <= train_cut:
            code = "t"
        elif counts["t"] + counts["v"] + len(members) <= valid_cut:
            code = "v"
        else:
            code = "s"
        counts[code] += len(members)
        for index in members:
            parts[index] = code
    return {
        "rows": len(rows),
        "sha256": hashlib.sha256(raw).hexdigest(),
        "parsed": parsed,
        "scaffolds": len(groups),
        "train": counts["t"],
        "valid": counts["v"],
        "test": counts["s"],
        "row_split": "".join(parts),
    }


def main():
    result = {
        "generated_by": "packages/science/scripts/scaffold-split.py",
        "rdkit_version": rdBase.rdkitVersion,
        "method": "MoleculeNet scaffold split (Wu et al., Chem. Sci. 2018, 9, 513): Bemis-Murcko scaffolds "
        "(Bemis & Murcko, J. Med. Chem. 1996, 39, 2887) of each SMILES as given, no chirality; groups "
        "largest first into train (80%), then valid (10%), the rest test",
        "codes": {"t": "train", "v": "valid", "s": "test", "x": "native RDKit refused the SMILES"},
        "datasets": {name: split(os.path.join(DATA, name)) for name in DATASETS},
    }
    text = json.dumps(result, indent=1) + "\n"
    if "--stdout" in sys.argv:
        sys.stdout.write(text)
    else:
        with open(os.path.join(DATA, "scaffold-splits.json"), "w") as out:
            out.write(text)


main()
