"""Writes data/brenk-alerts.csv from native RDKit's FilterCatalog BRENK (Debian python3-rdkit).

The 105 alerts are Brenk et al., "Lessons learnt from assembling screening libraries for drug
discovery for neglected diseases", ChemMedChem 2008, 3, 435-444 (doi:10.1002/cmdc.200700139), as
compiled into RDKit (BSD-3-Clause). Python does not expose an entry's matcher, so each entry is read
from its own serialization (boost text archive of a SmartsMatcher: name, pickled query molecule,
minimum count, maximum count); any other layout stops the script. The SMARTS text is regenerated
from the pickled query by Chem.MolToSmarts (the original text is not kept in the catalog); the
script then proves, per alert, that the regenerated SMARTS matches exactly the same atoms as the
compiled query on every NCI first_5K molecule, and stops if one differs.

Run: /usr/bin/python3 packages/science/scripts/extract-brenk-alerts.py [output.csv, or - for stdout]
"""
import csv
import os
import re
import sys

from rdkit import Chem, RDLogger, rdBase
from rdkit.Chem import FilterCatalog

RDLogger.DisableLog("rdApp.*")
here = os.path.dirname(os.path.abspath(__file__))
target = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "data", "brenk-alerts.csv")
NCI = "/usr/share/RDKit/Data/NCI/first_5K.smi"
UNBOUNDED = 2**32 - 1  # SmartsMatcher's default maximum count: no maximum

params = FilterCatalog.FilterCatalogParams()
params.AddCatalog(FilterCatalog.FilterCatalogParams.FilterCatalogs.BRENK)
catalog = FilterCatalog.FilterCatalog(params)

# Archive header, the pointer's class line, then the SmartsMatcher's name as "<length> <text> ".
HEADER = re.compile(rb"22 serialization::archive \d+ [^\n]*\n0 0 1 4 1 1\n1 0 0 (\d+) ")
COUNTS = re.compile(rb" (\d+) (\d+) ")


def read_entry(entry):
    data = entry.Serialize()
    head = HEADER.match(data)
    if head is None:
        raise SystemExit("unexpected matcher layout in %s" % entry.GetDescription())
    pos = head.end()
    name = data[pos : pos + int(head.group(1))].decode()
    pos += int(head.group(1)) + 1
    space = data.index(b" ", pos)
    size = int(data[pos:space])
    query = Chem.Mol(data[space + 1 : space + 1 + size])
    counts = COUNTS.match(data, space + 1 + size)
    if counts is None or name != entry.GetDescription():
        raise SystemExit("unexpected matcher layout in %s" % entry.GetDescription())
    return name, query, int(counts.group(1)), int(counts.group(2))


molecules = [Chem.MolFromSmiles(line.split()[0]) for line in open(NCI) if line.strip()]
molecules = [mol for mol in molecules if mol is not None]

rows = []
for index in range(catalog.GetNumEntries()):
    entry = catalog.GetEntryWithIdx(index)
    if entry.GetProp("FilterSet") != "Brenk":
        raise SystemExit("entry %s is not from the Brenk set" % entry.GetDescription())
    name, query, min_count, max_count = read_entry(entry)
    smarts = Chem.MolToSmarts(query)
    again = Chem.MolFromSmarts(smarts)
    for mol in molecules:
        if mol.GetSubstructMatches(query, maxMatches=10000) != mol.GetSubstructMatches(again, maxMatches=10000):
            raise SystemExit("regenerated SMARTS of %s differs on %s" % (name, Chem.MolToSmiles(mol)))
    rows.append([name, smarts, min_count, "" if max_count == UNBOUNDED else max_count])

out = sys.stdout if target == "-" else open(target, "w", newline="")
writer = csv.writer(out, lineterminator="\n")
writer.writerow(["name", "smarts", "min_count", "max_count"])
writer.writerows(rows)
out.flush()
print("%d Brenk alerts from RDKit %s, regenerated SMARTS equal on %d NCI molecules"
      % (len(rows), rdBase.rdkitVersion, len(molecules)), file=sys.stderr)
