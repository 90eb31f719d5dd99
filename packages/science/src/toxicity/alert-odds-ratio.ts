/** A 2×2 table of compounds: with or without an alert, active or inactive in one assay. */
export interface AlertTable {
  readonly alertActive: number;
  readonly alertInactive: number;
  readonly cleanActive: number;
  readonly cleanInactive: number;
}

/** The odds ratio of activity with the alert against without it, and Woolf's 95% interval. */
export interface OddsRatio {
  readonly oddsRatio: number;
  readonly low: number;
  readonly high: number;
}

/**
 * Woolf's (1955) log odds ratio with its 95% interval, exp(ln OR ± 1.96·√Σ1/n); a zero cell gets
 * Haldane–Anscombe's 0.5 added to every cell, so the ratio stays finite.
 */
export function alertOddsRatio(table: AlertTable): OddsRatio {
  const cells = [table.alertActive, table.alertInactive, table.cleanActive, table.cleanInactive];
  const [a = 0, b = 0, c = 0, d = 0] = cells.some((n) => n === 0) ? cells.map((n) => n + 0.5) : cells;
  const log = Math.log((a * d) / (b * c));
  const se = Math.sqrt(1 / a + 1 / b + 1 / c + 1 / d);
  return { oddsRatio: Math.exp(log), low: Math.exp(log - 1.96 * se), high: Math.exp(log + 1.96 * se) };
}

/** The table of one assay from per-compound alert flags and labels (null = not measured, skipped). */
export function alertTable(alerts: readonly (0 | 1 | null)[], labels: readonly (0 | 1 | null)[]): AlertTable {
  let alertActive = 0;
  let alertInactive = 0;
  let cleanActive = 0;
  let cleanInactive = 0;
  alerts.forEach((alert, i) => {
    const label = labels[i];
    if (alert === null || label === null || label === undefined) return;
    if (alert === 1) label === 1 ? alertActive++ : alertInactive++;
    else label === 1 ? cleanActive++ : cleanInactive++;
  });
  return { alertActive, alertInactive, cleanActive, cleanInactive };
}
