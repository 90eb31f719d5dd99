"""One-frame MM-GBSA rescoring of a ligand pose in its receptor (issue 40 item 2), run by mm-gbsa.ts.

Receptor: Amber ff14SB (OpenMM 7.7's amber14/protein.ff14SB.xml, Maier et al., J. Chem. Theory
Comput. 2015, 11, 3696) on the protein residues only (waters, ions and other heterogens dropped and
counted: amber14 has no template for a cofactor), converted to a ParmEd structure and pickled once per
receptor (`receptor`). A bond longer than 3 Å (a chain break the structure does not cap) is dropped
with its angles and torsions, so the minimisation does not close a gap. A residue that leaving a heterogen
out made a chain end gets its terminal group first (chain_ends.py), each such repair listed (`repairs`).

Ligand: GAFF 1.4 atom types from Open Babel 3.1.1's GAFF typer, parameters read from Open Babel's own
gaff.dat by ParmEd (Wang et al., J. Comput. Chem. 2004, 25, 1157); MMFF94 partial charges from RDKit
(Halgren, J. Comput. Chem. 1996, 17, 490) stand in for AM1-BCC, which needs AmberTools (not in Debian
12). A term gaff.dat lacks takes the parameter of the nearest same-element analogue (one type replaced,
then two; what AmberTools' parmchk2 does, not in Debian 12), each named; a bond or angle still without
one makes the ligand not assessed; a torsion without one is left out and counted.

Complex: the receptor truncated to the residues with an atom within CUTOFF Å of the ligand, OBC2
implicit solvent (Onufriev, Bashford & Case, Proteins 2004, 55, 383) with mbondi2 radii, no cutoff,
no surface term. A short minimisation (L-BFGS, MAX_ITERATIONS) with every heavy atom restrained
harmonically to its input position (RESTRAINT_K) relaxes hydrogens and clashes; then one frame:
score = E(complex) − E(receptor) − E(ligand), each with its own Born radii, on the same coordinates
(single trajectory: bonded terms cancel). No entropy: a relative score, not a binding free energy.

Usage:
  mmgbsa.py receptor IN.pdb OUT.pickle        prints {"atoms", "residues", "dropped": {name: n}, "breaks", "repairs": [...]}
  mmgbsa.py score RECEPTOR.pickle CUTOFF MAX_ITERATIONS LIGAND.sdf [LIGAND.sdf ...]
      prints one JSON line per ligand: {"ligand", "score_kcal_mol", "terms": {...}, ...} or {"ligand", "error"}
"""

import itertools
import json
import os
import pickle
import sys
import time
import warnings

warnings.filterwarnings("ignore")
# One thread: the runner's CPU budget is per process and the machine is shared; CPU time is what counts.
os.environ.setdefault("OPENMM_CPU_THREADS", "1")

# Importing chain_ends.py must not write __pycache__ beside it (the package folder is the product's).
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy  # noqa: E402
import openmm  # noqa: E402
import parmed  # noqa: E402
from openbabel import openbabel as ob  # noqa: E402
from openmm import app, unit  # noqa: E402
from rdkit import Chem, rdBase  # noqa: E402
from rdkit.Chem import AllChem  # noqa: E402

from chain_ends import terminate_chain_ends  # noqa: E402  chain ends left by dropped heterogens (issue 40)

rdBase.DisableLog("rdApp.*")
ob.obErrorLog.SetOutputLevel(0)

GAFF_DAT = os.path.join(os.environ.get("BABEL_DATADIR", "/usr/share/openbabel/3.1.1"), "gaff.dat")
PROTEIN_FF = "amber14/protein.ff14SB.xml"
BREAK_ANGSTROM = 3.0
# Two-type substitutions try each type's closest same-element types only (parmchk-like, bounded).
SUBSTITUTES_PER_TYPE = 6
RESTRAINT_K = 10.0  # kcal/mol/Å², on every heavy atom
PLATFORM = "CPU"


def receptor(source: str, target: str) -> None:
    pdb = app.PDBFile(source)
    modeller = app.Modeller(pdb.topology, pdb.positions)
    ff = app.ForceField(PROTEIN_FF)
    dropped: dict[str, int] = {}
    # PDBFile has already renamed HIE/HID/HIP to HIS; amber14 picks the tautomer from the hydrogens.
    templates = set(ff._templates) | {"HIS"}
    remove = []
    for residue in modeller.topology.residues():
        if residue.name in ("HOH", "WAT") or residue.name not in templates:
            dropped[residue.name] = dropped.get(residue.name, 0) + 1
            remove.append(residue)
    modeller.delete(remove)
    topology, positions, repairs = terminate_chain_ends(modeller.topology, modeller.positions)
    system = ff.createSystem(topology, nonbondedMethod=app.NoCutoff, constraints=None, rigidWater=False)
    structure = parmed.openmm.load_topology(topology, system, positions)
    breaks = drop_long_bonds(structure)
    with open(target, "wb") as handle:
        pickle.dump(structure, handle, protocol=pickle.HIGHEST_PROTOCOL)
    print(json.dumps({
        "atoms": len(structure.atoms),
        "residues": len(structure.residues),
        "dropped": dropped,
        "breaks": breaks,
        "repairs": repairs,
        "forcefield": PROTEIN_FF,
    }))


def drop_long_bonds(structure) -> int:
    """Removes bonds longer than BREAK_ANGSTROM and every valence term through them (a gap, not a bond)."""
    xyz = structure.coordinates
    long = set()
    for bond in structure.bonds:
        i, j = bond.atom1.idx, bond.atom2.idx
        if numpy.linalg.norm(xyz[i] - xyz[j]) > BREAK_ANGSTROM:
            long.add(frozenset((i, j)))
    if not long:
        return 0

    def crosses(atoms) -> bool:
        return any(frozenset((a.idx, b.idx)) in long for a, b in zip(atoms, atoms[1:]))

    for bond in [b for b in structure.bonds if frozenset((b.atom1.idx, b.atom2.idx)) in long]:
        bond.delete()
        structure.bonds.remove(bond)
    for name, arity in (("angles", 3), ("dihedrals", 4), ("urey_bradleys", 2), ("impropers", 4)):
        terms = getattr(structure, name)
        for term in [t for t in terms if crosses([getattr(t, f"atom{k}") for k in range(1, arity + 1)])]:
            if hasattr(term, "delete"):
                term.delete()
            terms.remove(term)
    for term in [t for t in structure.adjusts if frozenset((t.atom1.idx, t.atom2.idx)) in long]:
        structure.adjusts.remove(term)
    return len(long)


def gaff_types(mol) -> list[str] | None:
    conversion = ob.OBConversion()
    conversion.SetInFormat("mol")
    obmol = ob.OBMol()
    conversion.ReadString(obmol, Chem.MolToMolBlock(mol))
    if obmol.NumAtoms() != mol.GetNumAtoms():
        return None
    ff = ob.OBForceField.FindForceField("GAFF")
    if not ff.Setup(obmol):
        return None
    ff.GetAtomTypes(obmol)
    types = []
    for i in range(obmol.NumAtoms()):
        data = obmol.GetAtom(i + 1).GetData("FFAtomType")
        if data is None:
            return None
        types.append(data.GetValue())
    return types


def lookup(table, key, wildcards):
    for candidate in wildcards(key):
        for ordered in (candidate, tuple(reversed(candidate))):
            if ordered in table:
                return table[ordered]
    return None


def same_element(params, gaff_type):
    """GAFF types of the same element, the closest van der Waals radius first (then by name)."""
    own = params.atom_types[gaff_type]
    others = [t for t, v in params.atom_types.items() if v.atomic_number == own.atomic_number and t != gaff_type]
    return sorted(others, key=lambda t: (abs(params.atom_types[t].rmin - own.rmin), t))


def lookup_or_substitute(params, table, key, positions, wildcards, substitutions):
    """The parameter of `key`, or of the first key with one type at `positions` replaced by a type of
    the same element (parmchk-like analogy; AmberTools' parmchk2 is not in Debian 12). Each
    substitution is recorded as "wanted <- used"."""
    found = lookup(table, key, wildcards)
    if found is not None:
        return found
    for position in positions:
        for other in same_element(params, key[position]):
            candidate = tuple(other if n == position else t for n, t in enumerate(key))
            found = lookup(table, candidate, wildcards)
            if found is not None:
                substitutions.append(f"{'-'.join(key)} <- {'-'.join(candidate)}")
                return found
    # Then two types at once (e.g. an aromatic cp-cd pair next to a halogen), each from its few closest.
    for first, second in itertools.combinations(positions, 2):
        for one in same_element(params, key[first])[:SUBSTITUTES_PER_TYPE]:
            for two in same_element(params, key[second])[:SUBSTITUTES_PER_TYPE]:
                candidate = tuple(one if n == first else two if n == second else t for n, t in enumerate(key))
                found = lookup(table, candidate, wildcards)
                if found is not None:
                    substitutions.append(f"{'-'.join(key)} <- {'-'.join(candidate)}")
                    return found
    return None


def ligand_structure(mol, params, charges, types):
    """The ligand as a ParmEd structure with GAFF valence terms; returns it and the missing terms."""
    structure = parmed.Structure()
    for atom, charge, gaff in zip(mol.GetAtoms(), charges, types):
        atom_type = params.atom_types[gaff]
        entry = parmed.Atom(
            name=f"{atom.GetSymbol()}{atom.GetIdx() + 1}"[:4],
            type=gaff,
            charge=charge,
            mass=atom_type.mass,
            atomic_number=atom.GetAtomicNum(),
        )
        entry.atom_type = atom_type
        structure.add_atom(entry, "LIG", 1, chain="L")
    atoms = structure.atoms
    missing = {"bond": [], "angle": [], "torsion": [], "improper": []}
    substituted: list[str] = []
    neighbours = {a.GetIdx(): [n.GetIdx() for n in a.GetNeighbors()] for a in mol.GetAtoms()}

    def register(kind, term_type):
        term_type = term_type.__copy__() if hasattr(term_type, "__copy__") else term_type
        getattr(structure, kind).append(term_type)
        return term_type

    for bond in mol.GetBonds():
        i, j = bond.GetBeginAtomIdx(), bond.GetEndAtomIdx()
        found = lookup_or_substitute(params, params.bond_types, (types[i], types[j]), (0, 1), lambda k: [k],
                                     substituted)
        if found is None:
            missing["bond"].append("-".join((types[i], types[j])))
            continue
        structure.bonds.append(parmed.Bond(atoms[i], atoms[j], type=register("bond_types", found)))
    for j, around in neighbours.items():
        for i, k in itertools.combinations(around, 2):
            found = lookup_or_substitute(params, params.angle_types, (types[i], types[j], types[k]), (0, 2, 1),
                                         lambda key: [key], substituted)
            if found is None:
                missing["angle"].append("-".join((types[i], types[j], types[k])))
                continue
            structure.angles.append(parmed.Angle(atoms[i], atoms[j], atoms[k], type=register("angle_types", found)))
    close = {(i, k) for j, around in neighbours.items() for i in around for k in around if i != k}
    close |= {(i, j) for i, around in neighbours.items() for j in around}
    seen_ends = set()
    for bond in mol.GetBonds():
        j, k = bond.GetBeginAtomIdx(), bond.GetEndAtomIdx()
        for i in neighbours[j]:
            if i == k:
                continue
            for l in neighbours[k]:
                if l in (j, i):
                    continue
                key = (types[i], types[j], types[k], types[l])
                found = lookup_or_substitute(params, params.dihedral_types, key, (1, 2),
                                             lambda t: [t, ("X", t[1], t[2], "X")], substituted)
                if found is None:
                    missing["torsion"].append("-".join(key))
                    continue
                ends = (min(i, l), max(i, l))
                # 1-4 pairs once; a pair that is also 1-2 or 1-3 (small rings) keeps its exclusion.
                first = ends not in seen_ends and (i, l) not in close
                seen_ends.add(ends)
                for n, term in enumerate(found):
                    structure.dihedrals.append(parmed.Dihedral(
                        atoms[i], atoms[j], atoms[k], atoms[l],
                        ignore_end=not (first and n == 0),
                        type=register("dihedral_types", term),
                    ))
    # GAFF impropers (the central atom third, as in Amber): on each three-connected atom, the first
    # ordering of its neighbours that gaff.dat names, exact types before wildcards.
    for c, around in neighbours.items():
        if len(around) != 3:
            continue
        chosen = None
        for a, b, d in itertools.permutations(around):
            for key in ((types[a], types[b], types[c], types[d]), ("X", types[b], types[c], types[d]),
                        ("X", "X", types[c], types[d])):
                if key in params.improper_periodic_types:
                    chosen = (a, b, d, params.improper_periodic_types[key])
                    break
            if chosen:
                break
        if chosen is None:
            continue
        a, b, d, term = chosen
        structure.dihedrals.append(parmed.Dihedral(
            atoms[a], atoms[b], atoms[c], atoms[d], improper=True, ignore_end=True,
            type=register("dihedral_types", term),
        ))
    return structure, missing, sorted(set(substituted))


def build_system(structure):
    """The structure's force field with OpenMM's native OBC2 force (GBSAOBCForce: OBC type II with
    ACE's surface-area term), mbondi2 radii and ParmEd's OBC2 screening factors; no cutoff."""
    system = structure.createSystem(nonbondedMethod=app.NoCutoff, constraints=None, removeCMMotion=False)
    gb = openmm.GBSAOBCForce()
    gb.setNonbondedMethod(openmm.GBSAOBCForce.NoCutoff)
    gb.setSoluteDielectric(1.0)
    gb.setSolventDielectric(78.5)
    for atom, (radius, screen) in zip(structure.atoms, structure._get_gb_parameters(app.OBC2)):
        gb.addParticle(atom.charge, radius, screen)
    system.addForce(gb)
    return system


def energy(structure, coordinates) -> dict[str, float]:
    system = build_system(structure)
    groups = {}
    for index, force in enumerate(system.getForces()):
        force.setForceGroup(index)
        groups[index] = type(force).__name__
    context = openmm.Context(system, openmm.VerletIntegrator(0.001), openmm.Platform.getPlatformByName(PLATFORM))
    context.setPositions(coordinates * unit.angstrom)
    out = {"total": context.getState(getEnergy=True).getPotentialEnergy().value_in_unit(unit.kilocalorie_per_mole)}
    for index, name in groups.items():
        value = context.getState(getEnergy=True, groups={index}).getPotentialEnergy()
        out[name] = out.get(name, 0.0) + value.value_in_unit(unit.kilocalorie_per_mole)
    return out


def minimise(structure, coordinates, max_iterations):
    system = build_system(structure)
    restraint = openmm.CustomExternalForce("0.5*k*((x-x0)^2+(y-y0)^2+(z-z0)^2)")
    restraint.addGlobalParameter("k", RESTRAINT_K * 418.4)  # kcal/mol/Å² in kJ/mol/nm²
    for name in ("x0", "y0", "z0"):
        restraint.addPerParticleParameter(name)
    for atom in structure.atoms:
        if atom.atomic_number > 1:
            restraint.addParticle(atom.idx, (coordinates[atom.idx] / 10.0).tolist())
    system.addForce(restraint)
    context = openmm.Context(system, openmm.VerletIntegrator(0.001), openmm.Platform.getPlatformByName(PLATFORM))
    context.setPositions(coordinates * unit.angstrom)
    openmm.LocalEnergyMinimizer.minimize(context, 1.0, max_iterations)
    state = context.getState(getPositions=True)
    return numpy.array(state.getPositions(asNumpy=True).value_in_unit(unit.angstrom))


def score(receptor_path, cutoff, max_iterations, ligand_path, receptor_structure, params) -> dict:
    started = time.process_time()
    supplier = Chem.SDMolSupplier(ligand_path, removeHs=False)
    mol = next(iter(supplier), None)
    if mol is None:
        return {"error": "the ligand file could not be read by RDKit"}
    mol = Chem.AddHs(mol, addCoords=True)
    if len(Chem.GetMolFrags(mol)) != 1:
        return {"error": "gate: more than one fragment"}
    properties = AllChem.MMFFGetMoleculeProperties(mol)
    if properties is None:
        return {"error": "MMFF94 has no parameters for this ligand (no charges)"}
    charges = [properties.GetMMFFPartialCharge(i) for i in range(mol.GetNumAtoms())]
    types = gaff_types(mol)
    if types is None:
        return {"error": "Open Babel's GAFF typer could not type this ligand"}
    unknown = sorted({t for t in types if t not in params.atom_types})
    if unknown:
        return {"error": f"GAFF atom types without parameters: {', '.join(unknown)}"}
    ligand, missing, substituted = ligand_structure(mol, params, charges, types)
    if missing["bond"] or missing["angle"]:
        return {"error": "GAFF has no parameter for " + "; ".join(
            f"{kind} {', '.join(sorted(set(values)))}" for kind, values in missing.items() if values and kind in ("bond", "angle"))}
    ligand_xyz = numpy.array(mol.GetConformer().GetPositions())
    receptor_xyz = receptor_structure.coordinates
    # Residues with any atom within the cutoff of any ligand atom.
    near = set()
    for residue in receptor_structure.residues:
        xyz = receptor_xyz[[a.idx for a in residue.atoms]]
        d = numpy.min(numpy.linalg.norm(xyz[:, None, :] - ligand_xyz[None, :, :], axis=2))
        if d <= cutoff:
            near.add(residue.idx)
    if not near:
        return {"error": f"the pose has no receptor residue within {cutoff} Å: not in the pocket"}
    mask = ":" + ",".join(str(i + 1) for i in sorted(near))
    pocket = receptor_structure[mask]
    complex_ = pocket + ligand
    parmed.tools.changeRadii(complex_, "mbondi2").execute()
    xyz = numpy.vstack([pocket.coordinates, ligand_xyz])
    minimised = minimise(complex_, xyz, max_iterations)
    n_receptor = len(pocket.atoms)
    receptor_part = complex_[f"!:LIG"]
    ligand_part = complex_[":LIG"]
    e_complex = energy(complex_, minimised)
    e_receptor = energy(receptor_part, minimised[:n_receptor])
    e_ligand = energy(ligand_part, minimised[n_receptor:])
    terms = {
        name: e_complex.get(name, 0.0) - e_receptor.get(name, 0.0) - e_ligand.get(name, 0.0)
        for name in ("NonbondedForce", "GBSAOBCForce")
        if name in e_complex
    }
    heavy = [a.idx for a in ligand_part.atoms if a.atomic_number > 1]
    moved = numpy.sqrt(numpy.mean(numpy.sum((minimised[n_receptor:][heavy] - ligand_xyz[heavy]) ** 2, axis=1)))
    return {
        "score_kcal_mol": e_complex["total"] - e_receptor["total"] - e_ligand["total"],
        "terms": terms,
        "valence_difference_kcal_mol": sum(
            e_complex.get(n, 0.0) - e_receptor.get(n, 0.0) - e_ligand.get(n, 0.0)
            for n in ("HarmonicBondForce", "HarmonicAngleForce", "PeriodicTorsionForce")),
        "ligand_atoms": mol.GetNumAtoms(),
        "heavy_atoms": mol.GetNumHeavyAtoms(),
        "net_charge": Chem.GetFormalCharge(mol),
        "mmff_charge_sum": sum(charges),
        "pocket_residues": len(near),
        "pocket_atoms": n_receptor,
        "ligand_heavy_rmsd_after_minimisation": float(moved),
        "missing_torsions": sorted(set(missing["torsion"])),
        "substituted_parameters": substituted,
        "gaff_types": sorted(set(types)),
        "cpu_seconds": time.process_time() - started,
    }


def main() -> None:
    command = sys.argv[1]
    if command == "receptor":
        receptor(sys.argv[2], sys.argv[3])
        return
    receptor_path, cutoff, max_iterations = sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
    with open(receptor_path, "rb") as handle:
        receptor_structure = pickle.load(handle)
    # ParmEd 3.4's pickled state leaves out the (unused, no periodic box here) symmetry attribute.
    if not hasattr(receptor_structure, "symmetry"):
        receptor_structure.symmetry = None
    params = parmed.amber.AmberParameterSet(GAFF_DAT)
    for ligand_path in sys.argv[5:]:
        try:
            result = score(receptor_path, cutoff, max_iterations, ligand_path, receptor_structure, params)
        except Exception as error:  # noqa: BLE001 - reported per ligand, never a crash of the batch
            result = {"error": f"{type(error).__name__}: {error}"}
        print(json.dumps({"ligand": ligand_path, **result}), flush=True)


if __name__ == "__main__":
    main()
