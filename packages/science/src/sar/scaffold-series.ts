import { round } from "../numeric/round.ts";

/** Activity of one assay across a series' measured members. */
export interface SeriesActivity {
  readonly measured: number;
  readonly min_p: number;
  readonly max_p: number;
  readonly mean_p: number;
}

/** Compounds sharing one Murcko scaffold. */
export interface ScaffoldSeries {
  readonly murcko_scaffold: string;
  readonly compounds: number;
  /** The first candidate ids, in portfolio order (at most `MEMBERS_SHOWN`). */
  readonly candidate_ids: readonly string[];
  readonly activity: Readonly<Record<string, SeriesActivity>>;
}

export const MEMBERS_SHOWN = 10;

/** Running tallies per scaffold; memory grows with distinct scaffolds, not compounds. */
export class SeriesTally {
  private readonly series = new Map<
    string,
    {
      count: number;
      ids: string[];
      activity: Map<string, { n: number; min: number; max: number; sum: number }>;
    }
  >();

  add(scaffold: string, candidateId: string, activities: Readonly<Record<string, number>> | undefined): void {
    const entry = this.series.get(scaffold) ?? { count: 0, ids: [] as string[], activity: new Map() };
    entry.count++;
    if (entry.ids.length < MEMBERS_SHOWN) entry.ids.push(candidateId);
    for (const [assay, p] of Object.entries(activities ?? {})) {
      const a = entry.activity.get(assay) ?? { n: 0, min: p, max: p, sum: 0 };
      a.n++;
      a.min = Math.min(a.min, p);
      a.max = Math.max(a.max, p);
      a.sum += p;
      entry.activity.set(assay, a);
    }
    this.series.set(scaffold, entry);
  }

  get size(): number {
    return this.series.size;
  }

  /** All series, largest first (ties by scaffold SMILES). */
  ranked(): ScaffoldSeries[] {
    return [...this.series]
      .map(([scaffold, entry]) => ({
        murcko_scaffold: scaffold,
        compounds: entry.count,
        candidate_ids: entry.ids,
        activity: Object.fromEntries(
          [...entry.activity].map(([assay, a]) => [
            assay,
            { measured: a.n, min_p: round(a.min, 3), max_p: round(a.max, 3), mean_p: round(a.sum / a.n, 3) },
          ]),
        ),
      }))
      .sort((x, y) => y.compounds - x.compounds || (x.murcko_scaffold < y.murcko_scaffold ? -1 : 1));
  }
}
