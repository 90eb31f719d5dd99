"""Copies the shared PoseBusters complexes into packages/science/data/complexes/<id>/ (issue 25 item 5).

Usage: copy-complex-fixtures.py SOURCE_DIR   (the shared datasets' docking/posebusters/)

Each complex gets receptor.pdb, ligand.sdf (the crystal ligand) and, where the set has predicted poses,
poses.sdf. Receptors are trimmed to whole residues with any atom within 16 Å of any ligand or pose heavy
atom: PLIP's binding site is residues within 7.5 Å of the ligand and its charged groups count within
5.5–6 Å, so nothing that can interact is removed, while the files (and PLIP's run time) shrink. The one
MOL2 ligand (5ze6) is written as SDF by native RDKit. `sanity_error/` and `sanity_error_2/` are left
out: RDKit refuses their ligands (PoseBusters' own sanitisation-failure cases). Docked pose sets are cut to their first POSE_LIMIT
poses so the agreement test stays within a few minutes on two cores.
"""
import os
import sys

from rdkit import Chem

SOURCE = sys.argv[1]
OUT = os.path.join(os.path.dirname(__file__), "..", "data", "complexes")
POSE_LIMIT = 10
TRIM = 16.0

# id: (receptor, crystal ligand, predicted poses or None)
COMPLEXES = {
    "1g9v": ("1G9V_RQ3/1G9V_RQ3_protein.pdb", "1G9V_RQ3/1G9V_RQ3_ligand.sdf", "1G9V_RQ3/1G9V_RQ3_gold_redock.sdf"),
    "1ia1": ("1ia1/1ia1_protein_one_lig_removed.pdb", "1ia1/1ia1_ligand.sdf", None),
    "1of6": ("1of6/1of6_protein_one_lig_removed.pdb", "1of6/1of6_ligand.sdf", "1OF6_DTY/1OF6_DTY_vina.sdf"),
    "1s3v": ("1s3v/1s3v_protein_one_lig_removed.pdb", "1s3v/1s3v_ligand.sdf", None),
    "2bm2": ("mol_2bm2_protein_one_ligand_removed.pdb", "mol_2bm2_ligand.sdf", None),
    "2ha2": ("2HA2_SCK_2HA3_CHT/2HA2_SCK_2HA3_CHT_larger_receptor.pdb", "2HA2_SCK_2HA3_CHT/2HA2_SCK_2HA3_CHT_larger_ligand.sdf", None),
    "2ha3": ("2HA2_SCK_2HA3_CHT/2HA2_SCK_2HA3_CHT_smaller_receptor.pdb", "2HA2_SCK_2HA3_CHT/2HA2_SCK_2HA3_CHT_smaller_ligand.sdf", None),
    "5ze6": ("5ze6/5ze6_cond.pdb", "5ze6/5ze6_true.mol2", "5ze6/5ze6_pred.sdf"),
    "7cnq": ("7CNQ_G8X/7CNQ_G8X_protein.pdb", "7CNQ_G8X/7CNQ_G8X_ligand.sdf", None),
}


def read_ligands(path):
    if path.endswith(".mol2"):
        return [Chem.MolFromMol2File(path, removeHs=False)]
    return [m for m in Chem.SDMolSupplier(path, removeHs=False)]


def heavy_positions(mols):
    out = []
    for mol in mols:
        conf = mol.GetConformer()
        for atom in mol.GetAtoms():
            if atom.GetAtomicNum() > 1:
                p = conf.GetAtomPosition(atom.GetIdx())
                out.append((p.x, p.y, p.z))
    return out


def write_sdf(path, mols):
    writer = Chem.SDWriter(path)
    for mol in mols:
        writer.write(mol)
    writer.close()


for cid, (receptor, ligand, poses) in COMPLEXES.items():
    crystal = read_ligands(os.path.join(SOURCE, ligand))
    predicted = read_ligands(os.path.join(SOURCE, poses))[:POSE_LIMIT] if poses else []
    points = heavy_positions(crystal + predicted)
    lines = open(os.path.join(SOURCE, receptor)).read().splitlines()
    keep_residues = set()
    for line in lines:
        if line.startswith(("ATOM", "HETATM")):
            x, y, z = float(line[30:38]), float(line[38:46]), float(line[46:54])
            if any((x - a) ** 2 + (y - b) ** 2 + (z - c) ** 2 <= TRIM * TRIM for a, b, c in points):
                keep_residues.add(line[17:27])
    kept = [l for l in lines if l.startswith(("ATOM", "HETATM")) and l[17:27] in keep_residues]
    os.makedirs(os.path.join(OUT, cid), exist_ok=True)
    with open(os.path.join(OUT, cid, "receptor.pdb"), "w") as f:
        f.write("\n".join(kept + ["END"]) + "\n")
    write_sdf(os.path.join(OUT, cid, "ligand.sdf"), crystal)
    if predicted:
        write_sdf(os.path.join(OUT, cid, "poses.sdf"), predicted)
    print(cid, len(kept), "receptor atoms,", len(predicted), "poses")
