"""Native reference for the SA score (Ertl & Schuffenhauer 2009) per NCI molecule: RDKit's own
unhashed radius-2 Morgan counts (rdMolDescriptors.GetMorganFingerprint(mol, 2), the call
sascorer.py makes), the complexity counts sascorer.py uses, and sascorer.calculateScore itself,
imported unchanged from Debian rdkit-data's Contrib/SA_Score.

Usage: sa-score.py <smiles file, or - for stdin> [<every n-th line>]
Prints {"<nci id>": [{"<morgan id>": count, ...}, sa_score, heavy_atoms, stereocentres, spiro,
bridgehead, has_ring_over_8]}.
"""
import json
import sys

from rdkit import Chem, RDLogger
from rdkit.Chem import rdMolDescriptors

RDLogger.DisableLog("rdApp.*")
sys.path.insert(0, "/usr/share/RDKit/Contrib/SA_Score")
import sascorer  # noqa: E402

step = int(sys.argv[2]) if len(sys.argv) > 2 else 1
out = {}
lines = sys.stdin if sys.argv[1] == "-" else open(sys.argv[1])
for n, line in enumerate(lines):
    parts = line.split()
    if len(parts) < 2 or n % step != 0:
        continue
    mol = Chem.MolFromSmiles(parts[0])
    if mol is None:
        continue
    ids = rdMolDescriptors.GetMorganFingerprint(mol, 2).GetNonzeroElements()
    out[parts[1]] = [
        {str(k): v for k, v in ids.items()},
        sascorer.calculateScore(mol),
        mol.GetNumAtoms(),
        len(Chem.FindMolChiralCenters(mol, includeUnassigned=True)),
        rdMolDescriptors.CalcNumSpiroAtoms(mol),
        rdMolDescriptors.CalcNumBridgeheadAtoms(mol),
        any(len(ring) > 8 for ring in mol.GetRingInfo().AtomRings()),
    ]
print(json.dumps(out))
