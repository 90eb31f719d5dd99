"""Native reference for structural alerts: PAINS (RDKit's FilterCatalog PAINS_A/B/C), Brenk
(RDKit's FilterCatalog BRENK, compiled into the library, not read from the package's CSV) and the
NIBR hit-triage filters (a FilterCatalog of SmartsMatchers with MIN_COUNT built from the package's
copy of the NIBR CSV, as the NIBR Contrib script does), per NCI molecule.

Prints {"<nci id>": {"pains": [names], "brenk": [names], "nibr": [names]}}; only molecules RDKit parses. An
optional third argument takes every n-th molecule.
"""
import csv
import json
import sys

from rdkit import Chem, RDLogger
from rdkit.Chem import FilterCatalog

RDLogger.DisableLog("rdApp.*")
nci, nibr_csv = sys.argv[1], sys.argv[2]
every = int(sys.argv[3]) if len(sys.argv) > 3 else 1

params = FilterCatalog.FilterCatalogParams()
params.AddCatalog(FilterCatalog.FilterCatalogParams.FilterCatalogs.PAINS)
pains = FilterCatalog.FilterCatalog(params)
brenk_params = FilterCatalog.FilterCatalogParams()
brenk_params.AddCatalog(FilterCatalog.FilterCatalogParams.FilterCatalogs.BRENK)
brenk = FilterCatalog.FilterCatalog(brenk_params)

nibr = FilterCatalog.FilterCatalog()
for row in csv.DictReader(open(nibr_csv)):
    min_count = int(row["MIN_COUNT"]) or 1
    matcher = FilterCatalog.SmartsMatcher(row["PATTERN_NAME"], row["SMARTS"], min_count)
    nibr.AddEntry(FilterCatalog.FilterCatalogEntry(row["PATTERN_NAME"], matcher))

out = {}
for index, line in enumerate(open(nci)):
    parts = line.split()
    if len(parts) < 2 or index % every != 0:
        continue
    mol = Chem.MolFromSmiles(parts[0])
    if mol is None:
        continue
    out[parts[1]] = {
        "pains": sorted(e.GetDescription() for e in pains.GetMatches(mol)),
        "brenk": sorted(e.GetDescription() for e in brenk.GetMatches(mol)),
        "nibr": sorted(e.GetDescription() for e in nibr.GetMatches(mol)),
    }
print(json.dumps(out))
