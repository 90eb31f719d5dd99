/**
 * One call per classifier output (issue 36 item 4): "positive", "negative" or "uncertain", from the
 * calibrated probability and the label-conditional (Mondrian) conformal set together, so no output
 * can say "positive" while its conformal set excludes the positive label, or the reverse.
 *
 * The rule, the only one in the build:
 * - "positive" when the probability is at or above the model's threshold AND the conformal set is
 *   exactly {positive} (the negative label is excluded at the set's level);
 * - "negative" when the probability is below the threshold AND the set is exactly {negative};
 * - "uncertain" otherwise: the set holds both labels (neither can be excluded), holds none (the
 *   compound is atypical of both calibration classes), or points the other way than the probability.
 *
 * The probability alone is a point estimate; the conformal set is what carries the stated error
 * rate (Vovk, Gammerman & Shafer, Algorithmic Learning in a Random World, 2005: Mondrian conformal
 * predictors, label-conditional validity). A call needs both to agree.
 */
export type ClassifierCall = "positive" | "negative" | "uncertain";

export type ConformalLabel = "positive" | "negative";

export const CLASSIFIER_CALL_RULE =
  "positive: probability ≥ the model's threshold and the 90% Mondrian conformal set is {positive}; " +
  "negative: probability < the threshold and the set is {negative}; uncertain otherwise (both labels, " +
  "neither, or set and probability disagree)";

export function classifierCall(
  probability: number,
  threshold: number,
  predictionSet: readonly ConformalLabel[],
): ClassifierCall {
  const only = predictionSet.length === 1 ? predictionSet[0] : null;
  if (only === "positive" && probability >= threshold) return "positive";
  if (only === "negative" && probability < threshold) return "negative";
  return "uncertain";
}
