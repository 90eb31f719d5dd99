"""Ligand preparation adapter (issue 25 item 3), run by ligand-preparer.ts.

For each input line {"id", "smiles", "file"} (JSON lines on stdin), one JSON line out:
1. Protonation at pH 7.4 by Open Babel 3.1.1's pH model (`obabel -p 7.4`: OBMol.AddHydrogens(false, true,
   7.4), which applies the SMARTS/pKa transforms of its data file phmodel.txt: carboxylic acids,
   aliphatic amines, amidines/guanidines, phosphates, sulfonic acids, tetrazoles charged where their pKa
   says so at that pH).
2. 3D embedding by native RDKit: ETKDGv3 (Wang et al., J. Chem. Inf. Model. 2020) with a fixed random seed,
   then MMFF94 (Halgren, J. Comput. Chem. 1996) minimisation, up to 2,000 iterations.
3. PDBQT by Open Babel (Gasteiger charges (Gasteiger & Marsili 1980), AutoDock 4 atom types, torsion tree).
A ligand that cannot be parsed, protonated, embedded or typed gets {"id", "error": reason} instead.

Usage: prepare_ligand.py OUT_DIR SEED < ligands.jsonl
"""

import json
import os
import sys

from openbabel import openbabel, pybel
from rdkit import Chem, rdBase
from rdkit.Chem import AllChem

PH = 7.4
openbabel.obErrorLog.SetOutputLevel(0)
rdBase.DisableLog("rdApp.*")


def protonate(smiles: str) -> str:
    mol = pybel.readstring("smi", smiles)
    mol.OBMol.AddHydrogens(False, True, PH)
    return mol.write("can").split("\t")[0].strip()


def prepare(entry: dict, out_dir: str, seed: int) -> dict:
    ident = entry["id"]
    stem = entry.get("file", ident)
    try:
        protonated = protonate(entry["smiles"])
    except Exception as error:  # noqa: BLE001 - the reason is reported per ligand
        return {"id": ident, "error": f"Open Babel could not read or protonate the SMILES: {error}"}
    mol = Chem.MolFromSmiles(protonated)
    if mol is None:
        return {"id": ident, "error": f"RDKit could not read the protonated SMILES {protonated}"}
    if not any(atom.GetSymbol() == "C" for atom in mol.GetAtoms()):
        return {"id": ident, "error": "the ligand has no carbon atom: not a ligand Vina's scoring was fitted on"}
    if len(Chem.GetMolFrags(mol)) > 1:
        return {"id": ident, "error": "the ligand has more than one fragment; dock the parent"}
    mol = Chem.AddHs(mol)
    params = AllChem.ETKDGv3()
    params.randomSeed = seed
    if AllChem.EmbedMolecule(mol, params) != 0:
        params.useRandomCoords = True
        if AllChem.EmbedMolecule(mol, params) != 0:
            return {"id": ident, "error": "RDKit ETKDGv3 could not embed the molecule in 3D"}
    if not AllChem.MMFFHasAllMoleculeParams(mol):
        return {"id": ident, "error": "MMFF94 has no parameters for an atom of this molecule"}
    AllChem.MMFFOptimizeMolecule(mol, mmffVariant="MMFF94", maxIters=2000)
    sdf_path = os.path.join(out_dir, f"{stem}.sdf")
    pdbqt_path = os.path.join(out_dir, f"{stem}.pdbqt")
    mol.SetProp("_Name", ident)
    block = Chem.MolToMolBlock(mol)
    with open(sdf_path, "w") as handle:
        handle.write(block + "$$$$\n")
    ob = pybel.readstring("mol", block)
    # Explicitly: read from a molfile, Open Babel takes the charges as given (all zero).
    ob.calccharges("gasteiger")
    pdbqt = ob.write("pdbqt")
    if "ATOM" not in pdbqt and "HETATM" not in pdbqt:
        return {"id": ident, "error": "Open Babel wrote no PDBQT atoms"}
    with open(pdbqt_path, "w") as handle:
        handle.write(pdbqt)
    torsions = sum(1 for line in pdbqt.splitlines() if line.startswith("BRANCH"))
    return {
        "id": ident,
        "protonated_smiles": protonated,
        "sdf": sdf_path,
        "pdbqt": pdbqt_path,
        "heavy_atoms": mol.GetNumHeavyAtoms(),
        "formal_charge": Chem.GetFormalCharge(mol),
        "torsions": torsions,
    }


def main() -> None:
    out_dir, seed = sys.argv[1], int(sys.argv[2])
    for line in sys.stdin:
        if line.strip():
            print(json.dumps(prepare(json.loads(line), out_dir, seed), sort_keys=True), flush=True)


if __name__ == "__main__":
    main()
