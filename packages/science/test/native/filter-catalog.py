"""Native reference for structural alerts: PAINS (RDKit's FilterCatalog PAINS_A/B/C), Brenk
(RDKit's FilterCatalog BRENK, compiled into the library, not read from the package's CSV) and the
NIBR hit-triage filters (a FilterCatalog of SmartsMatchers with MIN_COUNT built from the package's
copy of the NIBR CSV, as the NIBR Contrib script does), per NCI molecule.

Prints {"<nci id>": {"pains": [names], "brenk": [names], "nibr": [names]}}; only molecules RDKit parses. An
optional third argument takes every n-th molecule; an optional fourth names the families to run
(comma-separated, default all three), so a cheap family can be compared on every molecule.
"""
import csv
import json
import sys

from rdkit import Chem, RDLogger
from rdkit.Chem import FilterCatalog

RDLogger.DisableLog("rdApp.*")
nci, nibr_csv = sys.argv[1], sys.argv[2]
every = int(sys.argv[3]) if len(sys.argv) > 3 else 1
families = sys.argv[4].split(",") if len(sys.argv) > 4 else ["pains", "brenk", "nibr"]

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
    catalogs = {"pains": pains, "brenk": brenk, "nibr": nibr}
    out[parts[1]] = {f: sorted(e.GetDescription() for e in catalogs[f].GetMatches(mol)) for f in families}
print(json.dumps(out))
