/**
 * Accuracy and Matthews correlation coefficient (Matthews, Biochim. Biophys. Acta 1975, 405, 442)
 * of binary calls against labels; MCC is 0 when a row or column of the confusion matrix is empty.
 */
export function binaryScores(
  calls: readonly boolean[],
  labels: readonly boolean[],
): { accuracy: number; mcc: number } {
  let tp = 0;
  let tn = 0;
  let fp = 0;
  let fn = 0;
  calls.forEach((call, i) => {
    if (call && labels[i]) tp++;
    else if (!call && !labels[i]) tn++;
    else if (call) fp++;
    else fn++;
  });
  const denominator = Math.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn));
  return {
    accuracy: calls.length === 0 ? 0 : (tp + tn) / calls.length,
    mcc: denominator === 0 ? 0 : (tp * tn - fp * fn) / denominator,
  };
}
