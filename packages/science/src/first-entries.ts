/**
 * How many entries a module summary's per-compound list holds: the first, in portfolio order,
 * with the full count beside it. Summaries are written whole (raw/<module>_raw.json, the combined
 * outputs) and held until the run ends, so a list with an entry per compound would make both grow
 * with the portfolio (issue 10 item 5: bounded outputs, flat memory). Each compound's own finding
 * carries the same fact, so nothing is lost past the limit.
 */
export const SUMMARY_LIST_LIMIT = 1000;

/** The first `limit` entries added, and how many were added in all. */
export class FirstEntries<T> {
  readonly items: T[] = [];
  #count = 0;

  readonly limit: number;

  constructor(limit: number = SUMMARY_LIST_LIMIT) {
    this.limit = limit;
  }

  add(item: T): void {
    this.#count++;
    if (this.items.length < this.limit) this.items.push(item);
  }

  get count(): number {
    return this.#count;
  }
}
