"""The crystal ligand of a redocking case, read by native RDKit: its isomeric SMILES (stereo from the
3D coordinates) and heavy-atom coordinates (for the box). Usage: redock-reference.py LIGAND.sdf|.mol2"""

import json
import sys

from rdkit import Chem


def main() -> None:
    path = sys.argv[1]
    mol = Chem.MolFromMol2File(path) if path.endswith(".mol2") else Chem.MolFromMolFile(path)
    if mol is None:
        print(json.dumps({"error": "native RDKit cannot read the crystal ligand"}))
        return
    Chem.AssignStereochemistryFrom3D(mol)
    mol = Chem.RemoveHs(mol)
    positions = mol.GetConformer().GetPositions().round(4).tolist()
    print(json.dumps({"smiles": Chem.MolToSmiles(mol), "heavy_atoms": mol.GetNumHeavyAtoms(), "positions": positions}))


if __name__ == "__main__":
    main()
