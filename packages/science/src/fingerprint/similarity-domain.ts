/**
 * The applicability domain of a model fitted on fingerprints (issue 24 item 1): a query is in the
 * domain when its nearest training compound (Tanimoto on Morgan radius-2, 2,048-bit fingerprints)
 * is at least as similar as the training compounds' own nearest neighbours are at the limit's
 * percentile, leave-one-out (Sheridan, Feuston, Maiorov & Kearsley, J. Chem. Inf. Comput. Sci.
 * 2004, 44, 1912: similarity to the training set as the domain). The limit is read from each
 * model's own file, so every model's rule is its own training data's.
 */
export interface SimilarityDomain {
  /** Percentile of the training compounds' leave-one-out nearest-neighbour Tanimoto (5: the 5th). */
  readonly percentile?: number;
  readonly min_tanimoto: number;
  /**
   * How the limit was chosen when it is not that percentile: the TDC models' floor from where their
   * scaffold-test error rises (admet/domain-floor.ts, issue 36 item 5).
   */
  readonly basis?: string;
}

/** The limit's origin in a few words: its basis, or the leave-one-out percentile. */
function limitBasis(domain: SimilarityDomain): string {
  return domain.basis ?? `the ${domain.percentile}th percentile leave-one-out`;
}

/**
 * The rule in one short line, as each output and each method card states it (short: every output
 * of every compound carries it, in the results JSON and report.csv): "leave-one-out" is the
 * training compounds' own nearest-neighbour Tanimoto, the limit its percentile.
 */
export function similarityDomainRule(domain: SimilarityDomain): string {
  return `nearest training Tanimoto (Morgan r2) ≥ ${domain.min_tanimoto}, ${limitBasis(domain)}`;
}

/**
 * Why a compound is outside the domain, or null when it is inside. `outside` passes a verdict
 * already taken on the unrounded similarity, so a rounded one cannot disagree at the limit.
 */
export function similarityDomainReason(
  similarity: number,
  domain: SimilarityDomain,
  outside: boolean = similarity < domain.min_tanimoto,
): string | null {
  if (!outside) return null;
  return (
    `out_of_domain: nearest training compound at Tanimoto ${Math.round(similarity * 1000) / 1000}, ` +
    `below the model's limit ${domain.min_tanimoto}`
  );
}

/**
 * A model output outside its domain (issue 24 item 1): no value is a finding; what the model gave
 * is kept under `raw_out_of_domain`, for audit only.
 */
export interface OutOfDomain<T> {
  readonly status: "out_of_domain";
  readonly in_domain: false;
  /** The rule that decided it (the model's own; see similarityDomainRule or the class gate). */
  readonly domain_rule: string;
  readonly domain_reason: string;
  /** The raw estimate, kept for audit: not a finding and not to be shown as one. */
  readonly raw_out_of_domain: T;
}

/** The card's statement of each model's limit, e.g. "CYP1A2 0.311, CYP2C9 0.304 (5th percentile)". */
export function similarityLimitsText(models: readonly (readonly [string, SimilarityDomain])[]): string {
  return models
    .map(([name, d]) => `${name} Tanimoto ≥ ${d.min_tanimoto} (${d.basis ?? `${d.percentile}th percentile`})`)
    .join(", ");
}
