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

/**
 * Measured throughput of the standard profile (issue 39 item 5), as `npm run bench -- docking`
 * printed it on 2026-12-02 (8 NCI first_5K compounds of 9–27 heavy atoms into the 1s3v pocket,
 * exhaustiveness 8, the pooled `vina --batch` path, CPU time of Vina, pose conversion and checks;
 * the machine had a load of 12–24 on 2 cores, so the wall-clock rates of that run say nothing and
 * the CPU is what is quoted). Bigger, more flexible ligands cost more (a 27-heavy-atom one took
 * 25 CPU-s alone); deep docks into 7 receptors at 4× the search, about 28 times this per compound.
 */
export const DOCKING_THROUGHPUT = {
  compoundsPerCoreHour: 387,
  vinaCliCompoundsPerCoreHour: 367,
  bench: "npm run bench -- docking --compounds=8 (2026-12-02)",
} as const;

/** What a Job of `pods` pods of `cpus` CPUs docks per hour at the measured rate, and how long each pod's budget takes. */
export function dockingJobThroughput(
  pods: number,
  cpus: number,
  budget = MOLECULAR_DOCKING_MAX_COMPOUNDS.default,
) {
  const perHour = DOCKING_THROUGHPUT.compoundsPerCoreHour * cpus * pods;
  return {
    compoundsPerHour: perHour,
    budgetMinutes: (budget / (DOCKING_THROUGHPUT.compoundsPerCoreHour * cpus)) * 60,
  };
}
