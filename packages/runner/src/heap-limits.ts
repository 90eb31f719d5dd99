import type { ResourceLimits } from "node:worker_threads";

// V8 heap limits of the runner's threads (issue 10 item 4: RSS flat as portfolios grow).
//
// Live JavaScript is small: ~21 MB on the main thread and ~11 MB per worker, measured with the
// inspector at 245k compounds. With Node's defaults on a large host (a young generation of up to
// 192 MB, an old one of up to 4 GB) V8 let each heap fill to ~150 MB of garbage before collecting,
// and that, not kept data, was the peak-RSS growth from 5k to 560k rows (568 → 769 MiB).
// Limiting the young generation is what bounds it; the old generation then stays near its live
// size. Measured on 20,000 NCI rows, 2 workers (the `cpu_s` and `max_rss_mib` of the runner's
// last log line): Node's defaults 572 MiB, 340 s of CPU; WORKER_HEAP_LIMITS 533 MiB, 310 s;
// with MAIN_THREAD_NODE_FLAGS too 456 MiB, 300 s. A global `--max-old-space-size=128` instead
// cost 43% more CPU (frequent full collections) for 521 MiB.

/**
 * Each worker's limits, set per worker by the pool (`resourceLimits`). On 12,000 compounds a
 * worker's heap stays at ~55 MB with these and CPU is unchanged; a 24 MB young generation cost 8%
 * more CPU. A worker that still runs out is terminated by Node and replaced by the pool, and only
 * its compound is unassessed.
 */
export const WORKER_HEAP_LIMITS: ResourceLimits = {
  maxOldGenerationSizeMb: 64,
  maxYoungGenerationSizeMb: 48,
};

/**
 * The main thread's: a V8 flag, fixed when the process starts, so it is given on the command line
 * or in NODE_OPTIONS. The runner images set `NODE_OPTIONS` to exactly this (a test checks each
 * Dockerfile) and the runner bench passes it; a 16 MB semi-space is the workers' 48 MB young
 * generation (three semi-spaces).
 */
export const MAIN_THREAD_NODE_FLAGS = ["--max-semi-space-size=16"] as const;
