/**
 * How many parsed compounds one pod docks into one structure, in portfolio order (issue 25 item 4;
 * issue 39 item 2), a runner setting (`--docking-max-compounds` / `SVC_DOCKING_MAX_COMPOUNDS`, chart
 * `config.dockingMaxCompounds`). A sharded run's pods each dock their own slice of the portfolio (pod
 * k: rows k+1, k+1+N, …), so this is a budget per shard: the default 500 lets a 20-pod Indexed Job
 * dock 10,000 compounds per structure. Maximum 1000 per shard. Compounds past a pod's budget are
 * `not_assessed` with reason `cap`, counted in the run's work (claim_reasons), never silent; 0 docks
 * none. Throughput per core-hour: `npm run bench -- docking` (runner README).
 */
export const MOLECULAR_DOCKING_MAX_COMPOUNDS = { default: 500, maximum: 1000 } as const;

/**
 * Compounds per `vina --batch` (issue 39 item 3): the receptor's grid maps are computed once per
 * chunk instead of once per compound, with byte-identical poses (science's dockBatch). 8 keeps
 * every core busy to the end of a pod's slice (the last chunks are the only ones that may leave a
 * core idle) while one computation of the maps serves 8 compounds.
 */
export const DOCKING_CHUNK = 8;
