/**
 * Why each policy module this build does not implement is `not_available`, and what it would
 * need (issue 11: never a placeholder number). Written into the module plan and the raw record.
 *
 * Issue 40 item 6: each reason names the missing data or the compute out of reach, and claims
 * nothing untrue about Debian. A claim that Debian lacks a package is written only as
 * "not packaged in Debian 12 (<package>, …)" with every package listed in {@link DEBIAN_CHECKS};
 * unavailable-modules.e2e.test.ts checks that phrase and, where apt is there, each package against
 * `apt-cache policy` on the machine.
 */

/** A Debian 12 package a reason names, whether it is packaged, and how that was checked. */
export interface DebianCheck {
  readonly package: string;
  readonly packaged: boolean;
  /** The command that showed it, and what it showed (bookworm, checked 2026-12-02). */
  readonly check: string;
}

const NO_CANDIDATE = "no candidate";

/** Every package a reason names as packaged or not, with the check behind it. */
export const DEBIAN_CHECKS: readonly DebianCheck[] = [
  { package: "ambertools", packaged: false, check: `apt-cache policy ambertools: ${NO_CANDIDATE}` },
  { package: "cpptraj", packaged: false, check: `apt-cache policy cpptraj: ${NO_CANDIDATE}` },
  { package: "python3-pyemma", packaged: false, check: `apt-cache policy python3-pyemma: ${NO_CANDIDATE}` },
  {
    package: "python3-deeptime",
    packaged: false,
    check: `apt-cache policy python3-deeptime: ${NO_CANDIDATE}`,
  },
  {
    package: "python3-openmmforcefields",
    packaged: false,
    check: `apt-cache policy python3-openmmforcefields: ${NO_CANDIDATE}`,
  },
  {
    package: "python3-openff-toolkit",
    packaged: false,
    check: `apt-cache policy python3-openff-toolkit: ${NO_CANDIDATE}`,
  },
  { package: "python3-libsbml", packaged: false, check: `apt-cache policy python3-libsbml: ${NO_CANDIDATE}` },
  { package: "copasi", packaged: false, check: `apt-cache policy copasi: ${NO_CANDIDATE}` },
  { package: "python3-simtk", packaged: true, check: "apt-cache policy python3-simtk: 7.7.0+dfsg-9+b1" },
  {
    package: "libopenmm-plugins",
    packaged: true,
    check:
      "apt-cache policy libopenmm-plugins: 7.7.0+dfsg-9+b1; with it openmm.Platform lists Reference and CPU",
  },
  {
    package: "openbabel",
    packaged: true,
    check: "apt-cache policy openbabel: 3.1.1+dfsg-9+b3; `obabel -L forcefields` lists GAFF, MMFF94, UFF",
  },
  {
    package: "python3-parmed",
    packaged: true,
    check:
      "apt-cache policy python3-parmed: 3.4.3+dfsg-1+b3; /usr/bin/python3 -c 'import parmed' prints 3.4.3",
  },
  {
    package: "xtb",
    packaged: true,
    check: "apt-cache policy xtb: 6.5.1-3; `xtb --version`: xtb version 6.5.1",
  },
  { package: "mopac", packaged: true, check: "apt-cache policy mopac: 22.0.6+dfsg-1+b1" },
  { package: "psi4", packaged: true, check: "apt-cache policy psi4: 1:1.3.2+dfsg-5" },
  { package: "cp2k", packaged: true, check: "apt-cache policy cp2k: 2023.1-2" },
  { package: "gromacs", packaged: true, check: "apt-cache policy gromacs: 2022.5-2" },
  { package: "concavity", packaged: true, check: "apt-cache policy concavity: 0.1+dfsg.1-5" },
  { package: "python3-mdtraj", packaged: true, check: "apt-cache policy python3-mdtraj: 1.9.7-6" },
];

/** What Debian 12 does ship for ligand physics (issue 40 item 6): the premise "no ligand parameterisation" was wrong. */
const DEBIAN_PHYSICS =
  "packaged in Debian 12 (python3-simtk, libopenmm-plugins, openbabel, python3-parmed): OpenMM 7.7 with its CPU " +
  "platform, and GAFF 1.4 ligand parameters from Open Babel 3.1.1's GAFF typer read by ParmEd 3.4.3; AM1-BCC " +
  "charges are not (they come with AmberTools, not packaged in Debian 12 (ambertools)), so MMFF94 or GFN2 " +
  "charges would stand in and be named as such";

const NO_PATHWAY_MODEL =
  "neither the input contract (sources.json stages a portfolio, structures, assays, targets and trajectories) " +
  "nor this build's data carries a parameterised model of the target's biology (an SBML pathway model with rate " +
  "constants and initial concentrations for the target's system), and no such model is made up here";

export const UNAVAILABLE_MODULES: Readonly<Record<string, string>> = {
  molecular_dynamics:
    "not available as converged protein–ligand MD: an explicit-solvent complex is tens of thousands of atoms, and " +
    "sampling that converges binding-site properties takes hundreds of nanoseconds per complex, far beyond a run's " +
    `CPU budget on the runner's cores (the engine is there: ${DEBIAN_PHYSICS}). What this build does run is ` +
    "interaction_stability: pose stability over tens of picoseconds of explicit-solvent MD of the best docked " +
    "poses in a truncated pocket (deep profile, a few compounds per structure), not a sampling of the complex",
  msm_analysis:
    "not available: a Markov state model needs a large ensemble of MD trajectories of the complex (about 150 µs " +
    "in aggregate for trypsin–benzamidine, Plattner & Noé, Nat. Commun. 2015, 6, 7653), orders of magnitude " +
    "beyond a run's CPU budget and not made here (see molecular_dynamics), and an MSM estimator: PyEMMA and " +
    "deeptime are not packaged in Debian 12 (python3-pyemma, python3-deeptime)",
  binding_kinetics:
    "not available: residence times and on/off rates need enhanced-sampling MD of unbinding, tens of trajectories " +
    "per compound (τRAMD: Kokh et al., J. Chem. Theory Comput. 2018, 14, 3859), beyond a run's CPU budget and not " +
    "run here (see molecular_dynamics); no measured kinetics are in the input contract to check a method against",
  solvation_thermodynamics:
    "not available: WaterMap/GIST hydration-site thermodynamics need tens of nanoseconds of explicit-solvent MD " +
    "of the restrained receptor per structure (GIST: Nguyen, Young & Gilson, J. Chem. Phys. 2012, 137, 044101), " +
    "not run here (see molecular_dynamics), and a GIST implementation: cpptraj is not packaged in Debian 12 " +
    "(cpptraj, ambertools), WaterMap is proprietary",
  solvent_mapping:
    "not available: hot-spot mapping needs either FTMap's probe docking and clustering (Kozakov et al., Nat. " +
    "Protoc. 2015, 10, 733; a web service, which a run never calls) or mixed-solvent MD, tens of nanoseconds per " +
    "probe and structure, beyond a run's CPU budget; neither is run here",
  virtual_panels:
    "not available: a virtual panel docks every compound into each off-target, which needs a curated receptor " +
    "structure with a named pocket per panel target (e.g. the 44 safety targets of Bowes et al., Nat. Rev. Drug " +
    "Discov. 2012, 11, 909); this build ships the panel's target list, not its structures or pockets, and one " +
    "docking per compound per target would multiply a run's docking time by the panel size; the ligand-based " +
    "panel evidence is in target_biology_risk",
  pbpk_sensitivity:
    "not available: a PBPK model needs compound parameters no input carries — dose, fraction unbound in plasma, " +
    "blood-to-plasma ratio, measured intrinsic clearance, tissue partition inputs — and a validated physiological " +
    "model; a sensitivity analysis over predicted inputs alone would restate the predictions' uncertainty, not a " +
    "pharmacokinetic risk",
  causal_discovery:
    "not available: causal structure learning needs observational or interventional measurements over many " +
    "variables of the target's biology (e.g. perturbation omics); the input contract (portfolio, structures, " +
    "assays, targets, trajectories) carries none",
  mechanistic_generic: `not available: a generic mechanistic model of the target's system needs one: ${NO_PATHWAY_MODEL}`,
  mechanistic_qc: `not available: quality control of a mechanistic model needs the model: ${NO_PATHWAY_MODEL}`,
  mechanistic_pathway_engine: `not available: simulating the target's pathway needs its kinetic model: ${NO_PATHWAY_MODEL}`,
  mechanistic_pathway_influence: `not available: pathway influence (sensitivity of pathway outputs to the target) needs the pathway's model: ${NO_PATHWAY_MODEL}`,
  mechanistic_pkpd_engine:
    "not available: a PK/PD model needs pharmacokinetic parameters (clearance, volume, dose) and a measured " +
    "exposure–response relation for the target, none of which the input contract carries; predicted ADMET values " +
    "are not PK parameters",
  mechanistic_extensions: `not available: extensions of a mechanistic model need the model first: ${NO_PATHWAY_MODEL}`,
  proteomics_validation:
    "not available: there is no proteomics input in the input contract (sources.json stages a portfolio, " +
    "structures, assays, targets and trajectories): without measured target engagement or protein abundance " +
    "data there is nothing to validate against",
  clinical_forecasting:
    "not available: the forecast this build could stand behind is the published phase-transition base rates by " +
    "therapeutic area (Wong, Siah & Lo, Biostatistics 2019, 20, 273), which are not checked in; a compound-level " +
    "model of clinical success has no validated public training set here. clinical_precedent_prior reports the " +
    "precedent evidence there is",
  mcts_optimization:
    "not available: Monte-Carlo tree search optimisation proposes new molecules; this build audits the submitted " +
    "compounds and generates none, and a proposal would need a scoring model valid outside its training domain, " +
    "which none of the models here is (each reports its own domain)",
};
