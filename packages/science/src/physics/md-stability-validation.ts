/**
 * interaction_stability's validation figures (md-stability.validation.test.ts): the crystal poses of
 * the shared complexes against the same ligands moved out of the pocket, each simulated with the
 * module's protocol. The test recomputes them, fails when they drift and writes the table into
 * docs/science.md; null until it has been run and the figures recorded here.
 */
export interface MdStabilityValidation {
  readonly complexes: number;
  readonly displacement_angstrom: number;
  readonly production_ps: number;
  /** Poses with at least half of their frames within 2 Å of the start. */
  readonly crystal_stable: number;
  readonly displaced_stable: number;
  readonly crystal_mean_median: number;
  readonly displaced_mean_median: number;
}

export const MD_STABILITY_VALIDATION: MdStabilityValidation | null = {
  complexes: 3,
  displacement_angstrom: 4,
  production_ps: 10,
  crystal_stable: 2,
  displaced_stable: 0,
  crystal_mean_median: 1.79,
  displaced_mean_median: 2.54,
};
