// Text the ledger and the signer accept (issue 16 item 2): PostgreSQL refuses U+0000 in TEXT
// (500 before), both stores turned a lone surrogate into U+FFFD (so an identical retry no longer
// matched what was stored), and two spellings of one string (NFC vs NFD) would be two principals.
// One rule for every string that reaches storage, checked before any write, on both stores.

/** Why `value` cannot be stored as given, or null: C0 controls and DEL, lone surrogates, non-NFC. */
export function describeUnstorableText(value: string): string | null {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  const control = /[\u0000-\u001f\u007f]/.exec(value);
  if (control !== null)
    return `contains control character U+${control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;
  if (!value.isWellFormed()) return "contains a lone UTF-16 surrogate (not valid Unicode text)";
  if (value.normalize("NFC") !== value) return "is not in Unicode normalization form NFC";
  return null;
}

/** Every string inside `value` (objects, arrays) that cannot be stored, as `field <path>: <why>`. */
export function findUnstorableText(value: unknown, path: readonly string[] = []): string[] {
  if (typeof value === "string") {
    const problem = describeUnstorableText(value);
    return problem === null ? [] : [`field ${path.length > 0 ? path.join(".") : "(body)"}: ${problem}`];
  }
  if (Array.isArray(value))
    return value.flatMap((item, index) => findUnstorableText(item, [...path, String(index)]));
  if (value !== null && typeof value === "object")
    return Object.entries(value).flatMap(([key, item]) => findUnstorableText(item, [...path, key]));
  return [];
}
