"""Native reference for manufacturability counts per NCI molecule, from native RDKit's own ring
perception and descriptors: atom stereocentres and unspecified ones (rdMolDescriptors), ring systems (SSSR rings sharing an atom merged), ring systems holding an atom
whose smallest ring has >= 12 members, spiro and bridgehead atoms, metal symbols.

Prints {"<nci id>": [stereo, unspecified, ring_systems, macrocycles, spiro, bridgehead, [metals]]}.
"""
import json
import sys

from rdkit import Chem, RDLogger
from rdkit.Chem import rdMolDescriptors

RDLogger.DisableLog("rdApp.*")
NONMETAL_Z = {1, 2, 5, 6, 7, 8, 9, 10, 14, 15, 16, 17, 18, 32, 33, 34, 35, 36, 51, 52, 53, 54, 85, 86}


def ring_systems(mol):
    systems = []
    for ring in mol.GetRingInfo().AtomRings():
        merged = set(ring)
        rest = []
        for system in systems:
            if system & merged:
                merged |= system
            else:
                rest.append(system)
        systems = rest + [merged]
    return systems


out = {}
for line in open(sys.argv[1]):
    parts = line.split()
    if len(parts) < 2:
        continue
    mol = Chem.MolFromSmiles(parts[0])
    if mol is None:
        continue
    ri = mol.GetRingInfo()
    systems = ring_systems(mol)
    macro = sum(1 for s in systems if any(ri.MinAtomRingSize(a) >= 12 for a in s))
    metals = sorted({a.GetSymbol() for a in mol.GetAtoms() if a.GetAtomicNum() not in NONMETAL_Z})
    out[parts[1]] = [
        rdMolDescriptors.CalcNumAtomStereoCenters(mol),
        rdMolDescriptors.CalcNumUnspecifiedAtomStereoCenters(mol),
        len(systems),
        macro,
        rdMolDescriptors.CalcNumSpiroAtoms(mol),
        rdMolDescriptors.CalcNumBridgeheadAtoms(mol),
        metals,
    ]
print(json.dumps(out))
