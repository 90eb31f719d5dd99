/**
 * How many parsed compounds one structure docks, in portfolio order (issue 25 item 4), a runner
 * setting (`--docking-max-compounds` / `SVC_DOCKING_MAX_COMPOUNDS`, chart `config.dockingMaxCompounds`).
 * Default 100: at the standard profile Vina takes ~0.5–2 CPU-minutes per compound here, so about an
 * hour of one core; the deep profile docks each compound into 7 receptors at 4× the search, ~25× that.
 * Maximum 1000 (a day of one core at the standard profile). Compounds past it are `not_assessed`
 * with reason `cap`, counted, never silent; 0 docks none.
 */
export const MOLECULAR_DOCKING_MAX_COMPOUNDS = { default: 100, maximum: 1000 } as const;
