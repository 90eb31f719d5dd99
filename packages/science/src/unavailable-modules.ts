/**
 * Why each policy module this build does not implement is `not_available`, and what it would
 * need (issue 11: never a placeholder number). Written into the module plan and the raw record.
 */
export const UNAVAILABLE_MODULES: Readonly<Record<string, string>> = {
  // Issue 25 item 9, checked with `apt-cache policy`/`apt-cache search` on Debian 12 (bookworm):
  // OpenMM 7.7 (python3-simtk) ships protein, nucleic-acid and water force fields (Amber14,
  // CHARMM36, AMOEBA) but no small-molecule parameters; AmberTools (antechamber, GAFF),
  // openmmforcefields and the OpenFF toolkit are not packaged, so no drug-like ligand can be
  // parameterised here.
  molecular_dynamics:
    "not available: protein–ligand MD needs ligand force-field parameters; OpenMM 7.7 (Debian python3-simtk) ships " +
    "protein force fields only, and Debian has no ligand parameterisation (no ambertools/antechamber/GAFF, " +
    "openmmforcefields or openff-toolkit package)",
  physics_binding:
    "not available: physics-based binding free energies (MM/GBSA, alchemical) need ligand force-field parameters, " +
    "which Debian cannot provide (no ambertools/antechamber/GAFF, openmmforcefields or openff-toolkit package); " +
    "docking scores are not binding free energies",
  interaction_stability:
    "not available: the stability of interactions over time needs an MD trajectory of the complex, and complex MD " +
    "needs ligand parameters Debian does not package (no ambertools/GAFF, openmmforcefields or openff-toolkit)",
  msm_analysis:
    "not available: a Markov state model needs many MD trajectories of the complex (none can be made here, see " +
    "molecular_dynamics) and an MSM estimator; Debian packages neither PyEMMA nor deeptime",
  qmmm_analysis:
    "not available: QM/MM needs the MM half (ligand force-field parameters: no ambertools/GAFF, openmmforcefields " +
    "or openff-toolkit in Debian) coupled to a QM engine; Debian's psi4, xtb and cp2k are not wired to OpenMM here",
  binding_kinetics:
    "not available: residence times and on/off rates need enhanced-sampling MD of the complex, which needs ligand " +
    "parameters Debian does not package (no ambertools/GAFF, openmmforcefields or openff-toolkit)",
};
