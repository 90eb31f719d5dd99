/** Mulberry32, a small deterministic 32-bit PRNG: the same seed gives the same folds everywhere. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Assigns each of `n` items to one of `k` folds, shuffled by a fixed seed (Fisher–Yates). */
export function assignFolds(n: number, k: number, seed: number): number[] {
  const random = mulberry32(seed);
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j] ?? 0, order[i] ?? 0];
  }
  const fold = new Array<number>(n).fill(0);
  order.forEach((item, position) => {
    fold[item] = position % k;
  });
  return fold;
}
