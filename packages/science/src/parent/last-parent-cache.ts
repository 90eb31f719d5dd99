/**
 * Remembers the last result computed for one parent SMILES. The module framework runs every
 * module on compound n before compound n + 1, so two modules reading the same expensive result
 * for the same parent (the NIBR filters, the solubility model) compute it once. One entry only:
 * memory stays flat whatever the portfolio size.
 */
export function lastParentCache<T>(): (parentSmiles: string, compute: () => T) => T {
  let key: string | null = null;
  let value: T | undefined;
  return (parentSmiles, compute) => {
    if (key !== parentSmiles) {
      value = compute();
      key = parentSmiles;
    }
    return value as T;
  };
}
