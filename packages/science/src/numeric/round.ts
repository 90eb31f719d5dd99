/**
 * `value` rounded half up to `digits` decimals, the one rounding every module writes with
 * (issue 29 item 1). `-0` comes back as `0`: the modules' copies differed only there (some kept
 * `-0`), and JSON.stringify writes `-0` as `0`, so the findings' bytes are the same either way.
 */
export function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  const rounded = Math.round(value * factor) / factor;
  return Object.is(rounded, -0) ? 0 : rounded;
}
