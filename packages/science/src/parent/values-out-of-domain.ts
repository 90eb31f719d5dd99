/**
 * The keys that carry a model's value as a finding. Out of a model's domain each must be absent,
 * null or (for a map of probabilities) empty: issue 24 item 1 ("no value shown as a finding").
 */
const VALUE_KEYS = [
  "value",
  "probability",
  "positive",
  "prediction_set",
  "interval",
  "interval_80",
  "interval_90",
  "log_s",
  "solubility_class",
  "qed",
  "boiled_egg",
  "bioavailability_score",
  "log_kp_cm_s",
] as const;

function empty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === "object" && Object.keys(value as object).length === 0;
}

/**
 * Every place in a finding (walked recursively, `raw_out_of_domain*` keys skipped: they are the
 * labelled audit copies) where an output that says it is out of its domain (`in_domain: false`
 * or `status: "out_of_domain"`) still carries a value as a finding, as dotted paths. Empty when
 * the finding is honest.
 */
export function valuesOutOfDomain(finding: unknown, path = ""): string[] {
  if (finding === null || typeof finding !== "object") return [];
  if (Array.isArray(finding)) return finding.flatMap((item, at) => valuesOutOfDomain(item, `${path}[${at}]`));
  const record = finding as Readonly<Record<string, unknown>>;
  const found: string[] = [];
  if (record.in_domain === false || record.status === "out_of_domain") {
    for (const key of VALUE_KEYS) if (key in record && !empty(record[key])) found.push(`${path}.${key}`);
    if ("probabilities" in record && !empty(record.probabilities)) found.push(`${path}.probabilities`);
  }
  if (record.ct_tox_in_domain === false && record.ct_tox_probability !== null)
    found.push(`${path}.ct_tox_probability`);
  for (const [key, value] of Object.entries(record))
    if (!key.startsWith("raw_out_of_domain")) found.push(...valuesOutOfDomain(value, `${path}.${key}`));
  return found;
}
