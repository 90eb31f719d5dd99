"""Writes data/huuskonen-external-solubility.csv: the external check of the solubility models.

Huuskonen's measured aqueous solubilities (Huuskonen, J. Chem. Inf. Comput. Sci. 2000, 40, 773) as
RDKit distributes them (rdkit/rdkit, Docs/Book/data/solubility.train.sdf and solubility.test.sdf,
BSD-3-Clause repository), keeping only compounds that are NOT in Delaney's set (the models' training
data): a compound is the same when native RDKit's canonical SMILES without stereochemistry is equal.
Duplicates inside the Huuskonen files keep their first record. log S in log10(mol/L), as given.

Run with Debian's python3-rdkit, giving the two SDF files (from a checkout of rdkit/rdkit):
  /usr/bin/python3 packages/science/scripts/extract-huuskonen-external.py train.sdf test.sdf
"""
import csv
import os
import sys

from rdkit import Chem, RDLogger

RDLogger.DisableLog("rdApp.*")
HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "data")


def key(mol):
    return Chem.MolToSmiles(mol, isomericSmiles=False)


def delaney_keys():
    keys = set()
    with open(os.path.join(DATA, "delaney-processed.csv"), newline="") as handle:
        for row in csv.DictReader(handle):
            mol = Chem.MolFromSmiles(row["smiles"])
            if mol is not None:
                keys.add(key(mol))
    return keys


def main(paths):
    seen = delaney_keys()
    out = []
    for path in paths:
        for mol in Chem.SDMolSupplier(path):
            if mol is None:
                continue
            k = key(mol)
            if k in seen:
                continue
            seen.add(k)
            out.append((mol.GetProp("NAME"), Chem.MolToSmiles(mol), mol.GetProp("SOL")))
    with open(os.path.join(DATA, "huuskonen-external-solubility.csv"), "w", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["name", "smiles", "log_s"])
        writer.writerows(out)
    print(f"{len(out)} compounds not in Delaney's set")


if __name__ == "__main__":
    main(sys.argv[1:])
