"""Receptor preparation adapter (issue 25 item 2), run by receptor-preparer.ts.

PDBFixer 1.8 (Eastman et al., PLoS Comput. Biol. 2017) on OpenMM: heterogens (waters, ions, ligands,
cofactors) removed unless their residue name is kept, non-standard residues replaced by their standard
parents, missing heavy atoms added (missing residues are not modelled: a loop PDBFixer invents would be
docked against as if observed), hydrogens added at the given pH from default residue pKas. Ions are
single-atom residues and the buffer ions in POLYATOMIC_IONS. Other
heterogens (cofactors such as NADPH) are kept as they are, heavy atoms only: PDBFixer has no template
to protonate them, and a pocket without its cofactor is not the pocket the ligand binds.

Usage: prepare_receptor.py IN.pdb|IN.cif OUT.pdb PH KEEP_JSON REMOVE_JSON
Prints one JSON line: counts and the tool versions.
"""

import json
import os
import random
import sys

# OpenMM picks its fastest platform for a Context made without one: here the CPU platform, whose
# threads (one per core) take blocks of atoms as they free up, so forces are summed in another order
# each run. PDBFixer's heavy-atom minimisation and Modeller's hydrogen minimisation then end elsewhere:
# two preparations of the same receptor differed in ~1,500 hydrogen coordinates (up to 0.02 Å), and
# Open Babel then typed a histidine's other nitrogen as the donor (2HA3 HIS 212, 2bm2 HIS 166; issue 43).
# The Reference platform is single-threaded, double precision, and the same code on every machine
# (the CPU platform also picks AVX or SSE kernels by processor). PDBFixer 1.8's addMissingAtoms takes
# no platform, so the default is set before any Context exists; preparation.json records the platform.
os.environ["OPENMM_DEFAULT_PLATFORM"] = "Reference"

import numpy  # noqa: E402
import openmm  # noqa: E402
from openmm import app  # noqa: E402
from pdbfixer import PDBFixer  # noqa: E402
import pdbfixer  # noqa: E402


WATERS = {"HOH", "WAT", "DOD", "H2O", "TIP", "TIP3", "SOL"}
# Polyatomic ions of crystallisation buffers, removed like single-atom ions.
POLYATOMIC_IONS = {"SO4", "PO4", "NO3", "SCN", "CO3", "ACT", "FMT"}


def default_platform() -> str:
    """The platform a Context made without one gets (what PDBFixer's minimisation ran on)."""
    system = openmm.System()
    system.addParticle(1.0)
    return openmm.Context(system, openmm.VerletIntegrator(0.001)).getPlatform().getName()


def main() -> None:
    source, target, ph = sys.argv[1], sys.argv[2], float(sys.argv[3])
    keep, remove = set(json.loads(sys.argv[4])), set(json.loads(sys.argv[5]))
    fixer = PDBFixer(filename=source)
    standard = set(pdbfixer.pdbfixer.proteinResidues) | set(pdbfixer.pdbfixer.dnaResidues) | set(pdbfixer.pdbfixer.rnaResidues)
    removed: dict[str, int] = {}
    to_delete = []
    for residue in fixer.topology.residues():
        if residue.name in standard or residue.name in keep:
            continue
        # Non-standard amino acids (MSE, …) are replaced below, not deleted.
        if residue.name in pdbfixer.pdbfixer.substitutions:
            continue
        is_water = residue.name in WATERS
        is_ion = len(list(residue.atoms())) == 1 or residue.name in POLYATOMIC_IONS
        if not (is_water or is_ion or residue.name in remove):
            continue
        to_delete.append(residue)
        removed[residue.name] = removed.get(residue.name, 0) + 1
    modeller = app.Modeller(fixer.topology, fixer.positions)
    modeller.delete(to_delete)
    fixer.topology, fixer.positions = modeller.topology, modeller.positions
    fixer.findNonstandardResidues()
    replaced = [f"{r.name}{r.id}->{s}" for r, s in fixer.nonstandardResidues]
    fixer.replaceNonstandardResidues()
    fixer.missingResidues = {}
    fixer.findMissingAtoms()
    missing_atoms = sum(len(atoms) for atoms in fixer.missingAtoms.values())
    missing_terminals = sum(len(atoms) for atoms in fixer.missingTerminals.values())
    fixer.addMissingAtoms(seed=0)
    before = sum(1 for a in fixer.topology.atoms() if a.element is not None and a.element.symbol == "H")
    # OpenMM's Modeller.addHydrogens places rotatable hydrogens with Python's and NumPy's random
    # generators, unseeded: the same receptor gave other hydrogens, so other Vina scores, run to run
    # (1s3v −9.420 or −9.483, 2bm2 −8.276 or −7.617 kcal/mol). Seeded, the preparation is reproducible.
    random.seed(0)
    numpy.random.seed(0)
    # Modeller.addHydrogens, as PDBFixer's addMissingHydrogens calls it, with the platform named.
    modeller = app.Modeller(fixer.topology, fixer.positions)
    modeller.addHydrogens(pH=ph, platform=openmm.Platform.getPlatformByName("Reference"))
    fixer.topology, fixer.positions = modeller.topology, modeller.positions
    after = sum(1 for a in fixer.topology.atoms() if a.element is not None and a.element.symbol == "H")
    protein_chains = sum(
        1 for c in fixer.topology.chains() if any(r.name in pdbfixer.pdbfixer.proteinResidues for r in c.residues())
    )
    with open(target, "w") as handle:
        app.PDBFile.writeFile(fixer.topology, fixer.positions, handle, keepIds=True)
    print(
        json.dumps(
            {
                "removed_heterogens": removed,
                "replaced_nonstandard": replaced,
                "added_heavy_atoms": missing_atoms + missing_terminals,
                "added_hydrogens": after - before,
                "atoms": fixer.topology.getNumAtoms(),
                "residues": fixer.topology.getNumResidues(),
                "protein_chains": protein_chains,
                "versions": {"pdbfixer_module": pdbfixer.pdbfixer.__version__, "openmm": openmm.__version__},
                "openmm_platform": default_platform(),
            },
            sort_keys=True,
        )
    )


if __name__ == "__main__":
    main()
