/** Escapes text for HTML element content and double-quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** A number for display: fixed digits, trailing zeros dropped; "—" for none. */
export function formatNumber(value: number | null, digits = 2): string {
  if (value === null || !Number.isFinite(value)) return "—";
  return String(Number(value.toFixed(digits)));
}

/** A bound in prose with a true minus sign (U+2212), as the report's method texts write it: −4, 2. */
export function formatBound(value: number): string {
  return String(value).replace("-", "−");
}

/** "31 of 34 (91%)". */
export function formatShare(part: number, whole: number): string {
  if (whole === 0) return `${part} of 0`;
  return `${part} of ${whole} (${Math.round((part / whole) * 100)}%)`;
}

/** An id usable in an HTML id attribute and a #fragment (candidate ids are customer text). */
export function anchorId(prefix: string, text: string): string {
  return `${prefix}-${text.replace(/[^A-Za-z0-9-]/g, (ch) => `_${ch.charCodeAt(0).toString(16)}`)}`;
}

/** Escapes text for element content only (quotes stay as they are: the evidence JSON is ~40% smaller). */
export function escapeText(text: string): string {
  return text.replace(/[&<>]/g, (ch) => `&#${ch.charCodeAt(0)};`);
}
