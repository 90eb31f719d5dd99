// A small label-selector matcher for the API double: equality-based (`a=b`, `a==b`, `a!=b`),
// existence (`a`, `!a`) and set-based (`a in (x,y)`, `a notin (x)`) requirements, the grammar of
// https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors.

type Requirement =
  | { kind: "eq"; key: string; value: string }
  | { kind: "neq"; key: string; value: string }
  | { kind: "exists"; key: string }
  | { kind: "absent"; key: string }
  | { kind: "in"; key: string; values: string[] }
  | { kind: "notin"; key: string; values: string[] };

/** Splits a selector on commas that are not inside a `( ... )` value set. */
function splitRequirements(selector: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = "";
  for (const ch of selector) {
    if (ch === "(") depth++;
    if (ch === ")") depth--;
    if (ch === "," && depth === 0) {
      parts.push(current);
      current = "";
    } else current += ch;
  }
  parts.push(current);
  return parts.map((part) => part.trim()).filter((part) => part.length > 0);
}

function parseRequirement(text: string): Requirement {
  const setMatch = /^(\S+)\s+(in|notin)\s*\(([^)]*)\)$/.exec(text);
  if (setMatch) {
    const values = (setMatch[3] ?? "").split(",").map((value) => value.trim());
    return setMatch[2] === "in"
      ? { kind: "in", key: setMatch[1] ?? "", values }
      : { kind: "notin", key: setMatch[1] ?? "", values };
  }
  const neq = /^([^!=\s]+)\s*!=\s*(\S*)$/.exec(text);
  if (neq) return { kind: "neq", key: neq[1] ?? "", value: neq[2] ?? "" };
  const eq = /^([^!=\s]+)\s*==?\s*(\S*)$/.exec(text);
  if (eq) return { kind: "eq", key: eq[1] ?? "", value: eq[2] ?? "" };
  if (text.startsWith("!")) return { kind: "absent", key: text.slice(1).trim() };
  return { kind: "exists", key: text };
}

/** True when `labels` satisfy every requirement of `selector` (an empty selector matches all). */
export function matchesLabelSelector(selector: string | undefined, labels: Record<string, string>): boolean {
  if (selector === undefined || selector.trim() === "") return true;
  return splitRequirements(selector)
    .map(parseRequirement)
    .every((req) => {
      const actual = labels[req.key];
      switch (req.kind) {
        case "eq":
          return actual === req.value;
        case "neq":
          return actual !== req.value;
        case "exists":
          return actual !== undefined;
        case "absent":
          return actual === undefined;
        case "in":
          return actual !== undefined && req.values.includes(actual);
        case "notin":
          return actual === undefined || !req.values.includes(actual);
      }
      return false;
    });
}
