"""Native reference for the Brenk odds ratios on Tox21 (issue 24 item 6): for the first N rows of
tox21.csv, whether the parent (RDKit's LargestFragmentChooser) matches any alert of RDKit's compiled
FilterCatalog BRENK, the catalog `toxicity_profile`'s Brenk alerts equal on NCI.

Prints [1 | 0 | null, ...] in row order (null: RDKit refuses the SMILES).
"""
import csv
import json
import sys

from rdkit import Chem, RDLogger
from rdkit.Chem import FilterCatalog
from rdkit.Chem.MolStandardize import rdMolStandardize

RDLogger.DisableLog("rdApp.*")
path, limit = sys.argv[1], int(sys.argv[2])

params = FilterCatalog.FilterCatalogParams()
params.AddCatalog(FilterCatalog.FilterCatalogParams.FilterCatalogs.BRENK)
brenk = FilterCatalog.FilterCatalog(params)
chooser = rdMolStandardize.LargestFragmentChooser()

out = []
with open(path) as handle:
    for i, row in enumerate(csv.DictReader(handle)):
        if i >= limit:
            break
        mol = Chem.MolFromSmiles(row["smiles"])
        if mol is None:
            out.append(None)
            continue
        parent = chooser.choose(mol)
        out.append(1 if brenk.HasMatch(parent) else 0)
print(json.dumps(out))
