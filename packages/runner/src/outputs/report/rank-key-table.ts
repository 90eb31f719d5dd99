import { compareRankKeysAt, RANK_KEY_WIDTH, type RankKey } from "./ranking.ts";

/** Keys per chunk: a chunk is 8,192 × 7 doubles (448 KiB); the last one is at most that short. */
const CHUNK_KEYS = 8192;

/**
 * Every compound's rank key, in portfolio order, packed as doubles in fixed chunks: 56 bytes a
 * compound instead of a JavaScript array each (~110 bytes), and no copy as it grows. The report
 * must rank every compound (report.csv has every rank), so this is the one per-compound record it
 * keeps in memory while the modules run (issue 10 item 4: memory flat as the portfolio grows).
 */
export class RankKeyTable {
  readonly #chunks: Float64Array[] = [];
  #count = 0;

  get count(): number {
    return this.#count;
  }

  push(key: RankKey): void {
    if (key.length !== RANK_KEY_WIDTH)
      throw new Error(`a rank key has ${RANK_KEY_WIDTH} parts, not ${key.length}`);
    const at = this.#count % CHUNK_KEYS;
    if (at === 0) this.#chunks.push(new Float64Array(CHUNK_KEYS * RANK_KEY_WIDTH));
    (this.#chunks.at(-1) as Float64Array).set(key, at * RANK_KEY_WIDTH);
    this.#count++;
  }

  /** The key of the compound at `position` (portfolio order). */
  key(position: number): RankKey {
    const chunk = this.#chunks[Math.floor(position / CHUNK_KEYS)] as Float64Array;
    const start = (position % CHUNK_KEYS) * RANK_KEY_WIDTH;
    return chunk.subarray(start, start + RANK_KEY_WIDTH) as unknown as RankKey;
  }

  /** Portfolio positions in rank order (as compareRankKeys; the last part, portfolio index, breaks ties). */
  order(): Uint32Array {
    const positions = new Uint32Array(this.#count);
    for (let at = 0; at < positions.length; at++) positions[at] = at;
    // Read in place: a subarray per comparison would allocate ~20 objects per compound.
    const chunks = this.#chunks;
    return positions.sort((a, b) =>
      compareRankKeysAt(
        chunks[Math.floor(a / CHUNK_KEYS)] as Float64Array,
        (a % CHUNK_KEYS) * RANK_KEY_WIDTH,
        chunks[Math.floor(b / CHUNK_KEYS)] as Float64Array,
        (b % CHUNK_KEYS) * RANK_KEY_WIDTH,
      ),
    );
  }
}
