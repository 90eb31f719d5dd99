// The measured wall time of each slow-tier test file (issue 41 item 4), and the order it gives. The e2e
// and validation tiers run two files at a time; started alphabetically, a 10-minute file that comes
// last leaves one slot idle for its whole length. Started longest first (Graham's LPT rule, *SIAM J.
// Appl. Math.* 1969: within 4/3 of the best makespan), the short files fill the other slot around it.
// The times come from the tier's own runs (file-times-reporter.ts) and are kept in file-costs.json,
// rewritten by `UPDATE_TEST_COSTS=1 npm run test:<tier>`.
import { readFileSync, writeFileSync } from "node:fs";

/** Seconds of wall time per repository-relative test file. */
export type FileCosts = Readonly<Record<string, number>>;

/**
 * `files` longest first by `costs`; a file with no recorded time (a new one) comes before every
 * measured file, since its cost is unknown and starting it early bounds the tail it can make. Ties
 * keep the name order, so the order is the same on every machine.
 */
export function longestFirst(files: readonly string[], costs: FileCosts): string[] {
  const cost = (file: string) => costs[file] ?? Number.POSITIVE_INFINITY;
  return [...files].sort((a, b) => cost(b) - cost(a) || (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The table after a tier's run: its files' new times replace the old ones, files of other tiers are
 * kept, and files that no longer exist (`existing` says which do) are dropped. Sorted by name so the
 * committed file diffs line by line.
 */
export function mergeFileCosts(
  old: FileCosts,
  measured: FileCosts,
  existing: (file: string) => boolean,
): Record<string, number> {
  const merged: Record<string, number> = {};
  for (const [file, seconds] of Object.entries({ ...old, ...measured }))
    if (existing(file)) merged[file] = Math.round(seconds);
  return Object.fromEntries(Object.entries(merged).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The `count` slowest files of a run, as lines "  612 s  path". */
export function slowestLines(measured: FileCosts, count: number): string[] {
  return Object.entries(measured)
    .sort(([, a], [, b]) => b - a)
    .slice(0, count)
    .map(([file, seconds]) => `${seconds.toFixed(0).padStart(6)} s  ${file}`);
}

export function readFileCosts(path: string): FileCosts {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as FileCosts;
  } catch {
    return {};
  }
}

export function writeFileCosts(path: string, costs: FileCosts): void {
  writeFileSync(path, `${JSON.stringify(costs, null, 2)}\n`);
}
