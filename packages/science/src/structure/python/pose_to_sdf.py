"""Docked poses back to SDF (issue 25 item 4), run by docking-engine.ts.

Vina's output PDBQT has heavy atoms and polar hydrogens, no bond orders, in Open Babel's torsion-tree
order. Each pose is read with Open Babel, its bond orders are taken from the prepared ligand
(RDKit AssignBondOrdersFromTemplate) only to match it atom for atom; the prepared ligand itself then
takes the pose's coordinates (so a pose is the ligand it came from, heavy atoms in its order) and hydrogens are added back on
the pose's coordinates (Chem.AddHs(addCoords=True)).

Usage: pose_to_sdf.py VINA_OUT.pdbqt PREPARED.sdf OUT_ALL.sdf
Prints {"poses": n} or {"error": reason}.
"""

import json
import sys

from openbabel import openbabel, pybel
from rdkit import Chem, rdBase
from rdkit.Chem import AllChem

openbabel.obErrorLog.SetOutputLevel(0)
rdBase.DisableLog("rdApp.*")


def main() -> None:
    poses_path, template_path, out_path = sys.argv[1:4]
    template = Chem.RemoveHs(Chem.MolFromMolFile(template_path, removeHs=False))
    writer = Chem.SDWriter(out_path)
    count = 0
    for index, pose in enumerate(pybel.readfile("pdbqt", poses_path)):
        block = pose.write("mol")
        mol = Chem.MolFromMolBlock(block, sanitize=False, removeHs=False)
        mol = Chem.RemoveHs(mol, sanitize=False)
        try:
            mol = AllChem.AssignBondOrdersFromTemplate(template, mol)
            # Atoms read without hydrogens keep "no implicit H" and would be radicals: let RDKit count.
            for atom in mol.GetAtoms():
                atom.SetNoImplicit(False)
                atom.SetNumRadicalElectrons(0)
            Chem.SanitizeMol(mol)
            match = mol.GetSubstructMatch(template, useChirality=False)
            if len(match) != template.GetNumAtoms():
                raise ValueError("pose does not match the prepared ligand")
            placed = Chem.Mol(template)
            conformer = placed.GetConformer()
            source = mol.GetConformer()
            for template_index, pose_index in enumerate(match):
                conformer.SetAtomPosition(template_index, source.GetAtomPosition(pose_index))
            mol = placed
        except Exception as error:  # noqa: BLE001 - reported as this compound's reason
            print(json.dumps({"error": f"pose {index + 1} could not be mapped onto the prepared ligand: {error}"}))
            return
        mol = Chem.AddHs(mol, addCoords=True)
        mol.SetProp("_Name", f"pose_{index + 1}")
        writer.write(mol)
        count += 1
    writer.close()
    print(json.dumps({"poses": count}))


if __name__ == "__main__":
    main()
