/**
 * The preflight token in a secret value: the chart's `K8S_API_TOKENS` is a JSON array of
 * `{ token }` (spec §2.6) whose first entry is the token (spec §5.2 rule 4); anything else is the
 * token itself.
 */
export function preflightTokenOf(secret: string): string {
  if (!secret.startsWith("[")) return secret;
  try {
    const entries = JSON.parse(secret) as { token?: unknown }[];
    const first = entries[0]?.token;
    if (typeof first === "string" && first !== "") return first;
  } catch {
    // not JSON after all: used as the token itself
  }
  return secret;
}

/**
 * The admin token in a secret value: `SVC_ADMIN_TOKENS` lists several, comma-separated, for
 * rotation; the first is the current one.
 */
export function adminTokenOf(secret: string): string {
  return secret.split(",")[0]?.trim() ?? secret;
}
