"""Short explicit-solvent MD of a docked pose: pose stability over N ps (issue 40 item 3), run by md-stability.ts.

The parameterisation is mmgbsa.py's, imported, not repeated: ff14SB receptor (its `receptor` pickle),
GAFF 1.4 ligand typed by Open Babel with MMFF94 charges (ligand_structure). What this adds:

System. The receptor truncated to the whole residues with an atom within POCKET_CUTOFF Å of the ligand
(a full receptor in a water box is ~4x the atoms; on a shared 2-core machine it would not fit a per-compound
budget of minutes). The cut edge is held: every heavy atom of a residue with no atom within FREE_SHELL Å of
the ligand is restrained to its input position (EDGE_K) for the whole run, so the fragment keeps the
pocket's shape; the residues lining the ligand and the ligand itself are free in production. Solvated in a
rectangular box (PADDING Å around the solute) tiled from OpenMM's pre-equilibrated TIP3P box (Jorgensen et
al., J. Chem. Phys. 1983, 79, 926; amber14/tip3p.xml), waters within 2.4 Å of a solute atom removed, then
neutralised with Na+/Cl- (the waters farthest from the solute replaced). PME electrostatics (Essmann et al.,
J. Chem. Phys. 1995, 103, 8577), CUTOFF_NM real-space cutoff, bonds to hydrogen constrained, rigid water,
hydrogen mass repartitioning to HMR_DALTON on solute hydrogens (Hopkins et al., J. Chem. Theory Comput.
2015, 11, 1864) so the step is 4 fs.

Protocol. L-BFGS minimisation with every solute heavy atom restrained; NVT (Langevin, 1/ps, 300 K) with the
solute heavy atoms restrained at RESTRAIN_K, then with the ligand and lining residues released; NPT
(Monte Carlo barostat, 1 bar) with the same restraints on the edge only; then production at NVT, the
positions saved every FRAME_PS ps. One seed for velocities and the integrator: the same input gives the
same trajectory on one machine and thread count (CPU platform, deterministic forces).

Output: one JSON line: the frames' ligand heavy-atom RMSD to the input pose after aligning the frame on the
pocket Cα (Kabsch), the pocket (protein atoms written once as PDB) and ligand (molblock with hydrogens)
coordinates per frame for the interaction profiler, the system's size and the CPU seconds of each phase.

Usage: md_stability.py RECEPTOR.pickle LIGAND.sdf OUT_DIR PRODUCTION_PS SEED THREADS
"""

import json
import os
import sys
import time

THREADS = sys.argv[6] if len(sys.argv) > 6 else "1"
os.environ["OPENMM_CPU_THREADS"] = THREADS
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# Importing mmgbsa.py must not write __pycache__ beside it: the package folder is the product's (read-only
# in the image) and a run leaves nothing outside its own folders.
sys.dont_write_bytecode = True

import numpy  # noqa: E402
import openmm  # noqa: E402
import parmed  # noqa: E402
from openmm import app, unit  # noqa: E402
from rdkit import Chem  # noqa: E402
from rdkit.Chem import AllChem  # noqa: E402

import mmgbsa  # noqa: E402  the parameterisation (issue 40 item 2), shared

POCKET_CUTOFF = 8.0  # Å: residues with an atom this close to the ligand are simulated
FREE_SHELL = 5.0  # Å: residues with an atom this close are free; the rest is the restrained edge
PADDING = 6.0  # Å of water around the solute's extent
CUTOFF_NM = 0.8
EDGE_K = 10.0  # kcal/mol/Å²
RESTRAIN_K = 5.0  # kcal/mol/Å² during the first equilibration
HMR_DALTON = 3.024
STEP_FS = 4.0
TEMPERATURE_K = 300.0
NVT_PS = (2.0, 2.0)  # restrained, then released
NPT_PS = 2.0
FRAME_PS = 1.0
MIN_WATER_DISTANCE = 2.4  # Å
MINIMISE_ITERATIONS = 300  # L-BFGS steps: relaxes clashes with the new water; 1000 cost 51 CPU-s for 1s3v
WATER_FF = "amber14/tip3p.xml"


def tiled_water(low, high):
    """Oxygen-first water triples tiling the box [low, high] from OpenMM's equilibrated TIP3P cube."""
    box_pdb = app.PDBFile(os.path.join(os.path.dirname(app.__file__), "data", "tip3p.pdb"))
    edge = box_pdb.topology.getUnitCellDimensions().value_in_unit(unit.angstrom)[0]
    xyz = numpy.array(box_pdb.positions.value_in_unit(unit.angstrom))
    waters = xyz.reshape(-1, 3, 3)
    size = high - low
    out = []
    for i in range(int(numpy.ceil(size[0] / edge))):
        for j in range(int(numpy.ceil(size[1] / edge))):
            for k in range(int(numpy.ceil(size[2] / edge))):
                shifted = waters + low + numpy.array([i, j, k]) * edge
                oxygen = shifted[:, 0, :]
                # A water whose oxygen is inside the box (the periodic image supplies the rest).
                inside = numpy.all((oxygen >= low) & (oxygen < high - 1.0), axis=1)
                out.append(shifted[inside])
    return numpy.concatenate(out)


def solvent_parameters():
    """TIP3P water and Na+/Cl- nonbonded parameters and water geometry, read from amber14/tip3p.xml (the
    force field OpenMM ships) through a three-molecule system, so nothing is retyped here."""
    topology = app.Topology()
    chain = topology.addChain("W")
    residue = topology.addResidue("HOH", chain)
    o = topology.addAtom("O", app.element.oxygen, residue)
    h1 = topology.addAtom("H1", app.element.hydrogen, residue)
    h2 = topology.addAtom("H2", app.element.hydrogen, residue)
    topology.addBond(o, h1)
    topology.addBond(o, h2)
    for name, element in (("NA", app.element.sodium), ("CL", app.element.chlorine)):
        ion = topology.addResidue(name, chain)
        topology.addAtom(name, element, ion)
    system = app.ForceField(WATER_FF).createSystem(topology, nonbondedMethod=app.NoCutoff, rigidWater=True)
    nonbonded = next(f for f in system.getForces() if isinstance(f, openmm.NonbondedForce))
    particles = [(system.getParticleMass(i), nonbonded.getParticleParameters(i)) for i in range(5)]
    constraints = {}
    for i in range(system.getNumConstraints()):
        a, b, length = system.getConstraintParameters(i)
        constraints[(a, b)] = length
    return {"water": particles[:3], "NA": particles[3], "CL": particles[4], "constraints": constraints}


def add_solvent(system, nonbonded, waters, ions):
    """Appends rigid TIP3P waters and ions to `system` (their nonbonded terms, the intramolecular
    exclusions and the three distance constraints that make a water rigid)."""
    params = solvent_parameters()
    first = system.getNumParticles()
    for _water in waters:
        base = system.getNumParticles()
        for mass, (charge, sigma, epsilon) in params["water"]:
            system.addParticle(mass)
            nonbonded.addParticle(charge, sigma, epsilon)
        for (a, b), length in params["constraints"].items():
            system.addConstraint(base + a, base + b, length)
        for a, b in ((0, 1), (0, 2), (1, 2)):
            nonbonded.addException(base + a, base + b, 0.0, 1.0, 0.0)
    for name, _position in ions:
        mass, (charge, sigma, epsilon) = params[name]
        system.addParticle(mass)
        nonbonded.addParticle(charge, sigma, epsilon)
    return first


def progress(stage, cpu):
    """A line on stderr per phase with its CPU so far (the runner keeps stderr for a failure's reason)."""
    print(f"{stage}: {json.dumps({k: round(v, 1) for k, v in cpu.items()})}", file=sys.stderr, flush=True)


def kabsch(mobile, reference):
    """Rotation and translations superposing `mobile` on `reference` (least squares, Kabsch 1976)."""
    mc, rc = mobile.mean(axis=0), reference.mean(axis=0)
    h = (mobile - mc).T @ (reference - rc)
    u, _s, vt = numpy.linalg.svd(h)
    d = numpy.sign(numpy.linalg.det(vt.T @ u.T))
    rotation = vt.T @ numpy.diag([1.0, 1.0, d]) @ u.T
    return rotation, mc, rc


def restraint_force(name, indices, reference_nm, k_kcal):
    """Harmonic position restraints; `name` is the force constant's global parameter (kJ/mol/nm²)."""
    force = openmm.CustomExternalForce(f"0.5*{name}*periodicdistance(x,y,z,x0,y0,z0)^2")
    force.addGlobalParameter(name, k_kcal * 418.4)
    for name in ("x0", "y0", "z0"):
        force.addPerParticleParameter(name)
    for index in indices:
        force.addParticle(int(index), reference_nm[index].tolist())
    return force


def simulate(receptor_structure, params, ligand_path, out_dir, production_ps, seed):
    cpu = {}
    started = time.process_time()
    mol = next(iter(Chem.SDMolSupplier(ligand_path, removeHs=False)), None)
    if mol is None:
        return {"error": "the ligand file could not be read by RDKit"}
    mol = Chem.AddHs(mol, addCoords=True)
    if len(Chem.GetMolFrags(mol)) != 1:
        return {"error": "gate: more than one fragment"}
    properties = AllChem.MMFFGetMoleculeProperties(mol)
    if properties is None:
        return {"error": "MMFF94 has no parameters for this ligand (no charges)"}
    charges = [properties.GetMMFFPartialCharge(i) for i in range(mol.GetNumAtoms())]
    types = mmgbsa.gaff_types(mol)
    if types is None:
        return {"error": "Open Babel's GAFF typer could not type this ligand"}
    unknown = sorted({t for t in types if t not in params.atom_types})
    if unknown:
        return {"error": f"GAFF atom types without parameters: {', '.join(unknown)}"}
    ligand, missing, substituted = mmgbsa.ligand_structure(mol, params, charges, types)
    if missing["bond"] or missing["angle"]:
        return {"error": "GAFF has no parameter for a bond or angle of this ligand"}
    ligand_xyz = numpy.array(mol.GetConformer().GetPositions())
    receptor_xyz = receptor_structure.coordinates

    def min_distance(residue):
        xyz = receptor_xyz[[a.idx for a in residue.atoms]]
        return float(numpy.min(numpy.linalg.norm(xyz[:, None, :] - ligand_xyz[None, :, :], axis=2)))

    distances = {residue.idx: min_distance(residue) for residue in receptor_structure.residues}
    near = sorted(i for i, d in distances.items() if d <= POCKET_CUTOFF)
    if not near:
        return {"error": f"the pose has no receptor residue within {POCKET_CUTOFF} Å: not in the pocket"}
    pocket = receptor_structure[":" + ",".join(str(i + 1) for i in near)]
    edge_residues = {n for n, i in enumerate(near) if distances[i] > FREE_SHELL}
    n_pocket = len(pocket.atoms)
    solute = pocket + ligand
    solute_xyz = numpy.vstack([pocket.coordinates, ligand_xyz])

    # Box and solvent
    low = solute_xyz.min(axis=0) - PADDING
    high = solute_xyz.max(axis=0) + PADDING
    waters = tiled_water(low, high)
    oxygen = waters[:, 0, :]
    keep = numpy.ones(len(waters), dtype=bool)
    for start in range(0, len(waters), 2000):
        chunk = waters[start:start + 2000].reshape(-1, 3)
        d = numpy.min(numpy.linalg.norm(chunk[:, None, :] - solute_xyz[None, :, :], axis=2), axis=1)
        keep[start:start + 2000] &= d.reshape(-1, 3).min(axis=1) > MIN_WATER_DISTANCE
    waters = waters[keep]
    oxygen = oxygen[keep]
    net = round(sum(a.charge for a in solute.atoms))
    # Neutralise: the waters farthest from the solute become counter-ions.
    far = numpy.argsort(-numpy.min(numpy.linalg.norm(oxygen[:, None, :] - solute_xyz[None, ::5, :], axis=2), axis=1))
    swap = far[:abs(net)]
    ions = [("CL" if net > 0 else "NA", oxygen[i]) for i in swap]
    waters = numpy.delete(waters, swap, axis=0)
    size = high - low
    solute.box = [size[0], size[1], size[2], 90.0, 90.0, 90.0]
    xyz = numpy.vstack([solute_xyz, waters.reshape(-1, 3), numpy.array([p for _n, p in ions]).reshape(-1, 3)])
    xyz = xyz - low  # into the box
    n_solute = len(solute.atoms)
    cpu["build"] = time.process_time() - started
    progress("built", cpu)

    system = solute.createSystem(
        nonbondedMethod=app.PME,
        nonbondedCutoff=CUTOFF_NM * unit.nanometer,
        constraints=app.HBonds,
    )
    nonbonded = next(f for f in system.getForces() if isinstance(f, openmm.NonbondedForce))
    add_solvent(system, nonbonded, waters, ions)
    # HMR on the solute: each hydrogen takes mass from the heavy atom it is bonded to (water is rigid).
    for bond in solute.bonds:
        a, b = bond.atom1, bond.atom2
        if a.atomic_number == 1 and b.atomic_number > 1:
            a, b = b, a
        if b.atomic_number == 1 and a.atomic_number > 1:
            moved = HMR_DALTON - b.mass
            system.setParticleMass(b.idx, HMR_DALTON * unit.dalton)
            heavy = system.getParticleMass(a.idx).value_in_unit(unit.dalton) - moved
            system.setParticleMass(a.idx, heavy * unit.dalton)
    reference_nm = xyz / 10.0
    heavy_solute = [a.idx for a in solute.atoms if a.atomic_number > 1]
    edge = [a.idx for a in pocket.atoms if a.atomic_number > 1 and a.residue.idx in edge_residues]
    system.addForce(restraint_force("k_edge", edge, reference_nm, EDGE_K))
    system.addForce(restraint_force("k_held", heavy_solute, reference_nm, RESTRAIN_K))
    integrator = openmm.LangevinMiddleIntegrator(TEMPERATURE_K * unit.kelvin, 1.0 / unit.picosecond,
                                                 STEP_FS * unit.femtosecond)
    integrator.setRandomNumberSeed(seed)
    platform = openmm.Platform.getPlatformByName("CPU")
    context = openmm.Context(system, integrator, platform, {"Threads": THREADS, "DeterministicForces": "true"})
    context.setPeriodicBoxVectors(*system.getDefaultPeriodicBoxVectors())
    context.setPositions(reference_nm * unit.nanometer)
    t = time.process_time()
    openmm.LocalEnergyMinimizer.minimize(context, 10.0, MINIMISE_ITERATIONS)
    cpu["minimise"] = time.process_time() - t
    progress("minimised", cpu)
    steps = lambda ps: int(round(ps * 1000.0 / STEP_FS))  # noqa: E731
    context.setVelocitiesToTemperature(TEMPERATURE_K * unit.kelvin, seed)
    t = time.process_time()
    integrator.step(steps(NVT_PS[0]))
    context.setParameter("k_held", 0.0)
    integrator.step(steps(NVT_PS[1]))
    # NPT: a barostat added for this stage only (the context reads the System again on reinitialisation).
    barostat = openmm.MonteCarloBarostat(1.0 * unit.bar, TEMPERATURE_K * unit.kelvin, 25)
    barostat.setRandomNumberSeed(seed)
    barostat_index = system.addForce(barostat)
    context.reinitialize(preserveState=True)
    integrator.step(steps(NPT_PS))
    system.removeForce(barostat_index)
    context.reinitialize(preserveState=True)
    cpu["equilibrate"] = time.process_time() - t
    progress("equilibrated", cpu)

    pocket_ca = [a.idx for a in pocket.atoms if a.name == "CA"]
    ligand_heavy = [n_pocket + a.idx for a in ligand.atoms if a.atomic_number > 1]
    reference = solute_xyz
    frames = []
    rmsd = []

    def record():
        state = context.getState(getPositions=True)
        now = numpy.array(state.getPositions(asNumpy=True).value_in_unit(unit.angstrom))[:n_solute] + low
        # Whole molecules: the periodic wrap can split the solute; unwrap each atom to its reference image.
        box = numpy.array(state.getPeriodicBoxVectors(asNumpy=True).value_in_unit(unit.angstrom)).diagonal()
        now = now - numpy.round((now - reference) / box) * box
        rotation, mc, rc = kabsch(now[pocket_ca], reference[pocket_ca])
        aligned = (now - mc) @ rotation.T + rc
        deviation = aligned[ligand_heavy] - reference[ligand_heavy]
        rmsd.append(float(numpy.sqrt(numpy.mean(numpy.sum(deviation ** 2, axis=1)))))
        frames.append(numpy.round(aligned, 3))

    t = time.process_time()
    per_frame = steps(FRAME_PS)
    n_frames = max(1, int(round(production_ps / FRAME_PS)))
    for _ in range(n_frames):
        integrator.step(per_frame)
        record()
    cpu["production"] = time.process_time() - t

    pocket_pdb = os.path.join(out_dir, "pocket.pdb")
    pocket.coordinates = solute_xyz[:n_pocket]
    # The receptor's own residue numbers and chains, so interactions name residues as docking's profile does;
    # atoms numbered in order (ParmEd leaves atoms it built at -1, which the profiler cannot tell apart).
    for serial, atom in enumerate(pocket.atoms, start=1):
        atom.number = serial
    pocket.save(pocket_pdb, overwrite=True, renumber=False)
    with open(os.path.join(out_dir, "frames.json"), "w") as handle:
        json.dump({
            "pocket": [frame[:n_pocket].tolist() for frame in frames],
            "ligand": [frame[n_pocket:].tolist() for frame in frames],
        }, handle)
    cpu["total"] = time.process_time() - started
    return {
        "rmsd_angstrom": [round(v, 3) for v in rmsd],
        "frame_ps": FRAME_PS,
        "production_ps": n_frames * FRAME_PS,
        "pocket_pdb": pocket_pdb,
        "ligand_molblock": Chem.MolToMolBlock(mol),
        "atoms": system.getNumParticles(),
        "waters": len(waters),
        "ions": len(ions),
        "pocket_residues": len(near),
        "restrained_edge_residues": len(edge_residues),
        "box_angstrom": [round(float(v), 2) for v in size],
        "substituted_parameters": substituted,
        "missing_torsions": sorted(set(missing["torsion"])),
        "cpu_seconds": {k: round(v, 2) for k, v in cpu.items()},
        "threads": int(THREADS),
        "versions": {"openmm": openmm.__version__, "parmed": parmed.__version__},
    }


def main() -> None:
    receptor_path, ligand_path, out_dir = sys.argv[1], sys.argv[2], sys.argv[3]
    production_ps, seed = float(sys.argv[4]), int(sys.argv[5])
    import pickle

    with open(receptor_path, "rb") as handle:
        receptor_structure = pickle.load(handle)
    if not hasattr(receptor_structure, "symmetry"):
        receptor_structure.symmetry = None
    params = parmed.amber.AmberParameterSet(mmgbsa.GAFF_DAT)
    os.makedirs(out_dir, exist_ok=True)
    try:
        result = simulate(receptor_structure, params, ligand_path, out_dir, production_ps, seed)
    except Exception as error:  # noqa: BLE001 - reported as the compound's reason, never a crash
        result = {"error": f"{type(error).__name__}: {error}"}
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
