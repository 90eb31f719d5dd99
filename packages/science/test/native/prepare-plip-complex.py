"""Builds protonated protein–ligand complexes that PLIP and our profiler both read (test reference only).

Usage: prepare-plip-complex.py RECEPTOR.pdb LIGANDS.sdf OUT_DIR
       prepare-plip-complex.py --protonate RECEPTOR.pdb OUT.pdb   (the protonated protein, made once)

For each molecule of LIGANDS.sdf (a crystal ligand or docked poses) writes OUT_DIR/<n>/complex.pdb: the
receptor's protein ATOM records with polar hydrogens added by Open Babel's AddPolarHydrogens (the step PLIP
itself runs unless --nohydro), then the ligand as HETATM residue LIG Z 900 with every hydrogen placed by
RDKit's AddHs(addCoords=True), and CONECT records (bond orders as repeated entries); and OUT_DIR/<n>/ligand.sdf,
the same ligand in the same atom order. Prints JSON: per molecule its directory and first ligand serial.
PLIP is then run with --nohydro so that both tools see exactly the same atoms.
"""
import json
import os
import sys

from openbabel import openbabel as ob
from rdkit import Chem, RDLogger

RDLogger.DisableLog("rdApp.*")
ob.obErrorLog.SetOutputLevel(0)
receptor_path, ligands_path, out_dir = sys.argv[1], sys.argv[2], sys.argv[3]

# Protein only: cofactors, ions and waters would be PLIP ligands of their own; PLIP's binding site holds
# amino-acid residues only, so dropping them leaves the ligand's profile as it is and saves PLIP's time.
# Open Babel places some polar hydrogens (Arg, His, Lys, Ser, ...) along random vectors seeded from
# the clock, so PLIP's counts moved from run to run (80 or 86 hydrophobic contacts on the same 1g9v
# poses). The protonated protein is therefore made once (--protonate, below) and checked in beside
# the receptor as receptor-polar-h.pdb (data/PROVENANCE.md); both tools read those same atoms.
def protonated_protein(path):
    protein_lines = [line for line in open(path) if line.startswith("ATOM")]
    conv = ob.OBConversion()
    conv.SetInAndOutFormats("pdb", "pdb")
    protein = ob.OBMol()
    conv.ReadString(protein, "".join(protein_lines) + "END\n")
    protein.AddPolarHydrogens()
    return [line for line in conv.WriteString(protein).splitlines() if line.startswith("ATOM")]


if receptor_path == "--protonate":
    # prepare-plip-complex.py --protonate RECEPTOR.pdb OUT.pdb: writes the protonated protein once.
    with open(out_dir, "w") as out_file:
        out_file.write("\n".join(protonated_protein(ligands_path)) + "\nEND\n")
    sys.exit(0)

fixed = os.path.join(os.path.dirname(receptor_path), "receptor-polar-h.pdb")
if os.path.exists(fixed):
    protein_pdb = [line for line in open(fixed).read().splitlines() if line.startswith("ATOM")]
else:
    protein_pdb = protonated_protein(receptor_path)

results = []
for n, ligand in enumerate(Chem.SDMolSupplier(ligands_path, removeHs=False)):
    ligand = Chem.AddHs(ligand, addCoords=True)
    Chem.Kekulize(ligand, clearAromaticFlags=False)
    out = []
    serial = 0
    for line in protein_pdb:
        serial += 1
        out.append(f"{line[:6]}{serial:5d}{line[11:]}")
    # No TER record: PLIP renumbers atoms by line when it "fixes" a file, and a TER would shift every
    # ligand serial away from its CONECT records.
    first = serial + 1
    conf = ligand.GetConformer()
    for atom in ligand.GetAtoms():
        serial += 1
        pos = conf.GetAtomPosition(atom.GetIdx())
        element = atom.GetSymbol()
        name = f"{element}{atom.GetIdx() + 1}"[:4]
        charge = atom.GetFormalCharge()
        charge_text = "" if charge == 0 else f"{abs(charge)}{'+' if charge > 0 else '-'}"
        out.append(
            f"HETATM{serial:5d} {name:<4s} LIG Z 900    {pos.x:8.3f}{pos.y:8.3f}{pos.z:8.3f}  1.00  0.00"
            f"          {element.upper():>2s}{charge_text:2s}"
        )
    partners = {}
    for bond in ligand.GetBonds():
        order = max(int(bond.GetBondTypeAsDouble()), 1)
        a, b = bond.GetBeginAtomIdx() + first, bond.GetEndAtomIdx() + first
        partners.setdefault(a, []).extend([b] * order)
        partners.setdefault(b, []).extend([a] * order)
    for a in sorted(partners):
        ids = partners[a]
        for i in range(0, len(ids), 4):
            out.append("CONECT" + f"{a:5d}" + "".join(f"{b:5d}" for b in ids[i : i + 4]))
    out.append("END")
    pose_dir = os.path.join(out_dir, str(n))
    os.makedirs(pose_dir, exist_ok=True)
    with open(os.path.join(pose_dir, "complex.pdb"), "w") as f:
        f.write("\n".join(out) + "\n")
    writer = Chem.SDWriter(os.path.join(pose_dir, "ligand.sdf"))
    writer.SetKekulize(True)
    writer.write(ligand)
    writer.close()
    results.append({"dir": pose_dir, "ligandFirstSerial": first})
print(json.dumps(results))
