"""The atoms a GFN2 QM-cluster interaction energy is built from (issue 40 item 5), run by qm-cluster.ts.

Receptor: the ParmEd structure mmgbsa.py's `receptor` command pickled (Amber ff14SB on the
hydrogen-added protein, Maier et al., J. Chem. Theory Comput. 2015, 11, 3696): every atom's element
and position, each residue's net charge as the sum of its ff14SB partial charges (an integer for a
standard residue, to rounding), and the covalent bonds between residues (peptide bonds, disulfides),
where qm-cluster.ts cuts and caps. The selection, the caps and the cluster's charge are made in
TypeScript (pure, unit-tested); this script only reads what the force field knows.

Ligand: the first molecule of the SDF with RDKit, hydrogens added where the pose lacks them (Vina's
poses keep polar hydrogens only) at RDKit's computed positions; its formal charge.

Usage:
  qm_cluster_atoms.py RECEPTOR.pickle LIGAND.sdf
      prints one JSON object: {"ligand": {...}, "receptor": {...}} or {"error": "..."}
"""

import json
import pickle
import sys
import warnings

warnings.filterwarnings("ignore")

from rdkit import Chem, rdBase  # noqa: E402

rdBase.DisableLog("rdApp.*")

ELEMENTS = Chem.GetPeriodicTable()


def ligand_of(path: str) -> dict:
    supplier = Chem.SDMolSupplier(path, removeHs=False)
    mol = next(iter(supplier), None)
    if mol is None:
        raise ValueError("the ligand file could not be read by RDKit")
    if len(Chem.GetMolFrags(mol)) != 1:
        raise ValueError("gate: more than one fragment")
    mol = Chem.AddHs(mol, addCoords=True)
    positions = mol.GetConformer().GetPositions()
    return {
        "symbols": [atom.GetSymbol() for atom in mol.GetAtoms()],
        "coordinates": [[round(float(v), 4) for v in xyz] for xyz in positions],
        "formal_charge": Chem.GetFormalCharge(mol),
    }


def receptor_of(path: str) -> dict:
    with open(path, "rb") as handle:
        structure = pickle.load(handle)
    xyz = structure.coordinates
    residues = []
    for residue in structure.residues:
        atoms = [atom.idx for atom in residue.atoms]
        residues.append({
            "name": residue.name,
            "chain": residue.chain,
            "number": residue.number,
            "first": atoms[0],
            "count": len(atoms),
            "charge": round(sum(atom.charge for atom in residue.atoms), 4),
        })
    bonds = [
        [bond.atom1.idx, bond.atom2.idx]
        for bond in structure.bonds
        if bond.atom1.residue.idx != bond.atom2.residue.idx
    ]
    return {
        "symbols": [ELEMENTS.GetElementSymbol(atom.atomic_number) for atom in structure.atoms],
        "coordinates": [[round(float(v), 4) for v in xyz[atom.idx]] for atom in structure.atoms],
        "residues": residues,
        "bonds": bonds,
    }


def main() -> None:
    try:
        result = {"ligand": ligand_of(sys.argv[2]), "receptor": receptor_of(sys.argv[1])}
    except Exception as error:  # noqa: BLE001 - reported as the compound's reason, never a crash
        result = {"error": f"{type(error).__name__}: {error}"}
    print(json.dumps(result))


if __name__ == "__main__":
    main()
