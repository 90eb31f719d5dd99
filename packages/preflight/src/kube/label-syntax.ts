// Kubernetes name and label syntax (https://kubernetes.io/docs/concepts/overview/working-with-objects/names/,
// .../labels/#syntax-and-character-set), used to validate every client input before it reaches the API.

/** DNS-1123 label: namespaces, container names. */
export const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
/** DNS-1123 subdomain (object names, label key prefixes); length checked separately. */
export const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const LABEL_NAME = /^[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;
const LABEL_VALUE = /^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?$/;

/** True for a valid label key: optional DNS-1123 subdomain prefix and `/`, then a name of at most 63 characters. */
export function isLabelKey(key: string): boolean {
  const slash = key.indexOf("/");
  if (slash === -1) return LABEL_NAME.test(key);
  const prefix = key.slice(0, slash);
  return prefix.length <= 253 && DNS1123_SUBDOMAIN.test(prefix) && LABEL_NAME.test(key.slice(slash + 1));
}

/** True for a valid label value (empty allowed). */
export function isLabelValue(value: string): boolean {
  return LABEL_VALUE.test(value);
}

/**
 * Returns why `selector` is not a valid label selector, or undefined when it is. Accepts the
 * equality (`k=v`, `k==v`, `k!=v`), existence (`k`, `!k`) and set (`k in (a,b)`, `k notin (a)`) forms.
 */
export function findLabelSelectorError(selector: string): string | undefined {
  if (selector.length > 1024) return "is longer than 1024 characters";
  const requirements: string[] = [];
  let depth = 0;
  let current = "";
  for (const ch of selector) {
    if (ch === "(") depth++;
    if (ch === ")") depth--;
    if (depth < 0 || depth > 1) return "has unbalanced parentheses";
    if (ch === "," && depth === 0) {
      requirements.push(current.trim());
      current = "";
    } else current += ch;
  }
  if (depth !== 0) return "has unbalanced parentheses";
  requirements.push(current.trim());
  for (const requirement of requirements) {
    if (requirement === "") return "has an empty requirement";
    const set = /^(\S+)\s+(in|notin)\s*\(([^()]*)\)$/.exec(requirement);
    if (set) {
      if (!isLabelKey(set[1] ?? "")) return `has an invalid key "${set[1]}"`;
      const values = (set[3] ?? "").split(",").map((value) => value.trim());
      const bad = values.find((value) => value === "" || !isLabelValue(value));
      if (bad !== undefined) return `has an invalid value "${bad}" in "${requirement}"`;
      continue;
    }
    const binary = /^([^!=\s]+)\s*(==|=|!=)\s*(\S*)$/.exec(requirement);
    if (binary) {
      if (!isLabelKey(binary[1] ?? "")) return `has an invalid key "${binary[1]}"`;
      if (!isLabelValue(binary[3] ?? "")) return `has an invalid value "${binary[3]}"`;
      continue;
    }
    const key = requirement.startsWith("!") ? requirement.slice(1).trim() : requirement;
    if (!isLabelKey(key)) return `has an invalid requirement "${requirement}"`;
  }
  return undefined;
}
