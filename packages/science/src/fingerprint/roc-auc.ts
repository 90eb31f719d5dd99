/**
 * Area under the ROC curve as the Mann–Whitney statistic: the probability that a random positive
 * scores above a random negative, ties counting one half (Hanley & McNeil, Radiology 1982, 143, 29).
 * NaN when either class is empty.
 */
export function rocAuc(scores: readonly number[], labels: readonly (0 | 1)[]): number {
  const order = scores
    .map((score, i) => ({ score, label: labels[i] ?? 0 }))
    .sort((a, b) => a.score - b.score);
  let positives = 0;
  let rankSum = 0;
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j < order.length && order[j]?.score === order[i]?.score) j++;
    const averageRank = (i + 1 + j) / 2;
    for (let k = i; k < j; k++)
      if (order[k]?.label === 1) {
        positives++;
        rankSum += averageRank;
      }
    i = j;
  }
  const negatives = order.length - positives;
  if (positives === 0 || negatives === 0) return Number.NaN;
  return (rankSum - (positives * (positives + 1)) / 2) / (positives * negatives);
}
