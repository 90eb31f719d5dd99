"""Symmetry-aware RMSD of each docked pose to the crystal ligand, native RDKit rdMolAlign.CalcRMS (no
superposition: the pose is already in the receptor's frame). Heavy atoms only; bond orders and charges
are set aside before matching (all bonds single, charges 0), so a protonated carboxylate or a
kekulised ring maps onto the crystal's form: the symmetry is that of the element graph.
Usage: redock-rmsd.py POSES.sdf CRYSTAL.sdf|.mol2  → JSON list of RMSDs (Å), pose order."""

import json
import sys

from rdkit import Chem
from rdkit.Chem import rdMolAlign


def graph_only(mol: Chem.Mol) -> Chem.Mol:
    mol = Chem.RWMol(Chem.RemoveHs(mol, sanitize=False))
    for bond in mol.GetBonds():
        bond.SetBondType(Chem.BondType.SINGLE)
        bond.SetIsAromatic(False)
    for atom in mol.GetAtoms():
        atom.SetFormalCharge(0)
        atom.SetIsAromatic(False)
        atom.SetNoImplicit(True)
    mol.UpdatePropertyCache(strict=False)
    return mol.GetMol()


def main() -> None:
    poses_path, crystal_path = sys.argv[1], sys.argv[2]
    crystal = Chem.MolFromMol2File(crystal_path) if crystal_path.endswith(".mol2") else Chem.MolFromMolFile(crystal_path)
    reference = graph_only(crystal)
    rmsds = []
    for pose in Chem.SDMolSupplier(poses_path, sanitize=False, removeHs=False):
        rmsds.append(round(rdMolAlign.CalcRMS(graph_only(pose), reference), 3))
    print(json.dumps(rmsds))


if __name__ == "__main__":
    main()
