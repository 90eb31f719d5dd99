"""Native reference for the charge-neutral parent: RDKit's rdMolStandardize.LargestFragmentChooser
then rdMolStandardize.Uncharger (default options), as in the ChEMBL structure pipeline's parent
step (Bento et al., J. Cheminform. 2020, 12, 51).

Usage: uncharge.py <smiles file, or - for stdin>   (lines `smiles id`)
Prints {"<id>": "<parent SMILES>"} for every molecule native RDKit parses.
"""
import json
import sys

from rdkit import Chem, RDLogger
from rdkit.Chem.MolStandardize import rdMolStandardize

RDLogger.DisableLog("rdApp.*")
chooser = rdMolStandardize.LargestFragmentChooser()
uncharger = rdMolStandardize.Uncharger()
out = {}
for line in sys.stdin if sys.argv[1] == "-" else open(sys.argv[1]):
    parts = line.split()
    if len(parts) < 2:
        continue
    mol = Chem.MolFromSmiles(parts[0])
    if mol is None:
        continue
    out[parts[1]] = Chem.MolToSmiles(uncharger.uncharge(chooser.choose(mol)))
print(json.dumps(out))
