"""Writes data/isotope-mass-deltas.json from native RDKit's periodic table: for every element, its
average atomic weight, and for every isotope RDKit tabulates, the isotope term of RDKit's Morgan
atom invariant, int(isotope mass - average atomic weight) truncated toward zero.

The masses are RDKit's copies of published data (IUPAC atomic weights; isotope masses from the
Atomic Mass Evaluation), BSD-3-Clause. Run with Debian's python3-rdkit:
    /usr/bin/python3 packages/science/scripts/extract-isotope-mass-deltas.py
"""
import json
import os

from rdkit import Chem, rdBase

here = os.path.dirname(os.path.abspath(__file__))
table = Chem.GetPeriodicTable()
elements = {}
for z in range(1, 119):
    weight = table.GetAtomicWeight(z)
    deltas = {}
    for isotope in range(1, 300):
        mass = table.GetMassForIsotope(z, isotope)
        if mass > 0:
            deltas[str(isotope)] = int(mass - weight)
    elements[str(z)] = {"weight": weight, "deltas": deltas}
data = {
    "source": "RDKit %s periodic table (Chem.GetPeriodicTable())" % rdBase.rdkitVersion,
    "rule": "int(isotope mass - average atomic weight), truncated toward zero; an isotope RDKit does not "
    "tabulate has its mass number as mass",
    "elements": elements,
}
with open(os.path.join(here, "..", "data", "isotope-mass-deltas.json"), "w") as out:
    json.dump(data, out, separators=(",", ":"))
    out.write("\n")
