"""A ligand's input geometry and a conformer search for the GFN2-xTB audit (issue 40 item 1).

Reads the first molecule of an SDF (a docked pose, or a crystal ligand) with its hydrogens; adds the
missing ones on the input coordinates (Chem.AddHs(addCoords=True)), so the searched molecule is the
pose's own (same protonation, same atom order). The conformer search is RDKit ETKDGv3 (Riniker &
Landrum, J. Chem. Inf. Model. 2015, 55, 2562), seeded, each conformer MMFF94-minimised, then pruned:
sorted by MMFF energy, a conformer within PRUNE_RMSD of a kept one (heavy atoms, best alignment) is
dropped, at most KEEP kept. GFN2-xTB then optimises each kept conformer (ligand-physics.ts).

Usage: ligand_conformers.py LIGAND.sdf CONFORMERS SEED KEEP
Prints {"symbols": [...], "charge": q, "heavy_atoms": n, "fragments": k, "input": [[x, y, z], ...],
"conformers": [[[x, y, z], ...], ...], "embedded": m} or {"error": reason}.
"""

import json
import sys

from rdkit import Chem, rdBase
from rdkit.Chem import AllChem, rdMolAlign

rdBase.DisableLog("rdApp.*")

PRUNE_RMSD = 0.5


def coordinates(mol, conf_id=-1):
    conformer = mol.GetConformer(conf_id)
    return [[round(c, 5) for c in conformer.GetAtomPosition(i)] for i in range(mol.GetNumAtoms())]


def main() -> None:
    path, count, seed, keep = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    supplier = Chem.SDMolSupplier(path, removeHs=False)
    mol = next(iter(supplier), None)
    if mol is None:
        print(json.dumps({"error": "the ligand file could not be read by RDKit"}))
        return
    mol = Chem.AddHs(mol, addCoords=True)
    heavy = mol.GetNumHeavyAtoms()
    fragments = len(Chem.GetMolFrags(mol))
    out = {
        "symbols": [atom.GetSymbol() for atom in mol.GetAtoms()],
        "charge": Chem.GetFormalCharge(mol),
        "heavy_atoms": heavy,
        "fragments": fragments,
        "input": coordinates(mol),
        "conformers": [],
        "embedded": 0,
    }
    if count > 0 and fragments == 1:
        search = Chem.Mol(mol)
        params = AllChem.ETKDGv3()
        params.randomSeed = seed
        ids = list(AllChem.EmbedMultipleConfs(search, numConfs=count, params=params))
        out["embedded"] = len(ids)
        if ids:
            results = AllChem.MMFFOptimizeMoleculeConfs(search, maxIters=2000)
            order = sorted(
                (energy, conf_id) for conf_id, (_, energy) in zip(ids, results)
            )
            heavy_only = Chem.RemoveHs(search)
            kept = []
            for _, conf_id in order:
                if len(kept) >= keep:
                    break
                if all(
                    rdMolAlign.GetBestRMS(heavy_only, heavy_only, prbId=conf_id, refId=other, maxMatches=1000)
                    >= PRUNE_RMSD
                    for other in kept
                ):
                    kept.append(conf_id)
            out["conformers"] = [coordinates(search, conf_id) for conf_id in kept]
    print(json.dumps(out))


if __name__ == "__main__":
    main()
