import type { PrincipalBalances } from "../domain/account-schemas.ts";

/** Folds `(principal, mode, runs_remaining)` rows into one entry per principal, in `order`. */
export function groupBalances(
  order: readonly string[],
  rows: readonly Record<string, unknown>[],
): PrincipalBalances[] {
  const byPrincipal = new Map(order.map((principal) => [principal, { standard: 0, deep: 0 }]));
  for (const row of rows) {
    const balances = byPrincipal.get(String(row.principal));
    const mode = String(row.mode);
    if (balances && (mode === "standard" || mode === "deep")) balances[mode] = Number(row.runs_remaining);
  }
  return order.map((principal) => ({
    principal,
    balances: byPrincipal.get(principal) ?? { standard: 0, deep: 0 },
  }));
}
