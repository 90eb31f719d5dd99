"""Writes data/qed-bickerton-2012.json from native RDKit's QED definition (rdkit.Chem.QED).

The desirability-function parameters, weights, acceptor SMARTS and the 116 structural-alert SMARTS
are data published by Bickerton et al., Nat. Chem. 2012, 4, 90 (as encoded in RDKit, BSD-3-Clause).
Run with Debian's python3-rdkit: /usr/bin/python3 packages/science/scripts/extract-qed-data.py
"""
import json
import os

from rdkit import rdBase
from rdkit.Chem import QED

here = os.path.dirname(os.path.abspath(__file__))
data = {
    "source": "rdkit.Chem.QED (RDKit %s), Bickerton et al., Nat. Chem. 2012, 4, 90" % rdBase.rdkitVersion,
    "properties": list(QED.QEDproperties._fields),
    "weight_mean": list(QED.WEIGHT_MEAN),
    "ads_parameters": {name: p._asdict() for name, p in QED.adsParameters.items()},
    "acceptor_smarts": QED.AcceptorSmarts,
    "aliphatic_ring_smarts": "[$([A;R][!a])]",
    "alert_smarts": QED.StructuralAlertSmarts,
}
with open(os.path.join(here, "..", "data", "qed-bickerton-2012.json"), "w") as out:
    json.dump(data, out, indent=1)
    out.write("\n")
