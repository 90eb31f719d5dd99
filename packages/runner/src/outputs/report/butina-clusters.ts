// Series in the portfolio (issue 27 item 4): Butina clustering (Butina, J. Chem. Inf. Comput. Sci.
// 1999, 39, 747) on Morgan radius-2, 2,048-bit fingerprints with a Tanimoto similarity threshold
// of 0.4 (distance 0.6, a common choice for ECFP4-like bits), and each compound's nearest
// neighbours. Quadratic in the compounds clustered, so the report clusters the first
// CLUSTER_MAX ranked compounds and says so.

/** Two compounds are neighbours at Tanimoto ≥ this (Butina distance ≤ 1 − this). */
export const CLUSTER_SIMILARITY = 0.4;
/** The first ranked compounds clustered (≈ 2 million pairs; about a second). */
export const CLUSTER_MAX = 2000;
/** Nearest neighbours listed on each card. */
export const NEIGHBOURS = 3;

export interface ClusterInput {
  /** Rank, 1 = first; the order of `items` must be by rank. */
  readonly rank: number;
  readonly candidate_id: string;
  /** Morgan on-bits, ascending. */
  readonly bits: Uint16Array;
}

export interface Neighbour {
  readonly candidate_id: string;
  readonly rank: number;
  readonly tanimoto: number;
}

export interface Cluster {
  /** 1-based, numbered in the order of their best-ranked member. */
  readonly id: number;
  /** Ranks of the members, best first; members[0] is the cluster's best compound. */
  readonly members: readonly number[];
  /** The Butina centroid (most neighbours when picked). */
  readonly centroid: number;
}

export interface Clustering {
  readonly clusters: readonly Cluster[];
  /** Cluster id by rank. */
  readonly clusterOf: ReadonlyMap<number, number>;
  readonly neighbours: ReadonlyMap<number, readonly Neighbour[]>;
}

/** Tanimoto of two ascending on-bit lists. */
export function sparseTanimoto(a: Uint16Array, b: Uint16Array): number {
  let i = 0;
  let j = 0;
  let both = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as number;
    const y = b[j] as number;
    if (x === y) {
      both++;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  const either = a.length + b.length - both;
  return either === 0 ? 0 : both / either;
}

/**
 * Butina's algorithm: every pair's similarity; each compound's neighbour list at the threshold;
 * then, by neighbour count (descending; ties to the better-ranked), a compound not yet assigned
 * becomes a centroid and takes its unassigned neighbours as its cluster.
 */
export function butinaClusters(items: readonly ClusterInput[]): Clustering {
  const n = items.length;
  const near: number[][] = Array.from({ length: n }, () => []);
  const best: Neighbour[][] = Array.from({ length: n }, () => []);
  const keep = (at: number, other: ClusterInput, tanimoto: number) => {
    const list = best[at] as Neighbour[];
    if (list.length === NEIGHBOURS && (list.at(-1) as Neighbour).tanimoto >= tanimoto) return;
    list.push({ candidate_id: other.candidate_id, rank: other.rank, tanimoto });
    list.sort((x, y) => y.tanimoto - x.tanimoto || x.rank - y.rank);
    if (list.length > NEIGHBOURS) list.pop();
  };
  for (let a = 0; a < n; a++) {
    const itemA = items[a] as ClusterInput;
    for (let b = a + 1; b < n; b++) {
      const itemB = items[b] as ClusterInput;
      const t = sparseTanimoto(itemA.bits, itemB.bits);
      if (t <= 0) continue;
      keep(a, itemB, t);
      keep(b, itemA, t);
      if (t >= CLUSTER_SIMILARITY) {
        (near[a] as number[]).push(b);
        (near[b] as number[]).push(a);
      }
    }
  }
  const order = items
    .map((_, at) => at)
    .sort((x, y) => (near[y] as number[]).length - (near[x] as number[]).length || x - y);
  const assigned = new Int32Array(n).fill(-1);
  const raw: { centroid: number; members: number[] }[] = [];
  for (const at of order) {
    if (assigned[at] !== -1) continue;
    const members = [at, ...(near[at] as number[]).filter((other) => assigned[other] === -1)];
    for (const member of members) assigned[member] = raw.length;
    raw.push({ centroid: at, members });
  }
  for (const cluster of raw) cluster.members.sort((x, y) => x - y);
  raw.sort((x, y) => (x.members[0] as number) - (y.members[0] as number));
  const clusterOf = new Map<number, number>();
  const clusters = raw.map((cluster, at) => {
    const members = cluster.members.map((m) => (items[m] as ClusterInput).rank);
    for (const rank of members) clusterOf.set(rank, at + 1);
    return { id: at + 1, members, centroid: (items[cluster.centroid] as ClusterInput).rank };
  });
  const neighbours = new Map<number, readonly Neighbour[]>();
  for (const [at, item] of items.entries()) neighbours.set(item.rank, best[at] as Neighbour[]);
  return { clusters, clusterOf, neighbours };
}
