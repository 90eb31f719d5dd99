/** Pearson's correlation coefficient of two equally long series; null when either is constant or they are shorter than 3. */
export function pearson(a: ArrayLike<number>, b: ArrayLike<number>): number | null {
  const n = a.length;
  if (n !== b.length) throw new Error(`pearson: lengths differ (${n} and ${b.length})`);
  if (n < 3) return null;
  let meanA = 0;
  let meanB = 0;
  for (let i = 0; i < n; i++) {
    meanA += a[i] ?? 0;
    meanB += b[i] ?? 0;
  }
  meanA /= n;
  meanB /= n;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < n; i++) {
    const da = (a[i] ?? 0) - meanA;
    const db = (b[i] ?? 0) - meanB;
    sab += da * db;
    saa += da * da;
    sbb += db * db;
  }
  if (saa === 0 || sbb === 0) return null;
  return sab / Math.sqrt(saa * sbb);
}
