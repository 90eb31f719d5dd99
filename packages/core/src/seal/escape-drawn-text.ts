/**
 * Escapes everything drawn (issue 9 §2): markup characters become character references, and
 * characters that are invisible or reorder text (Unicode Cc/Cf: controls, bidi overrides such
 * as U+202E, zero-width joiners) or that XML 1.0 cannot carry are drawn as a visible `⟨U+XXXX⟩`,
 * so a signed field can never display as something other than its code points.
 */
export function escapeDrawnText(text: string): string {
  return text.replace(/[&<>"']|[\p{Cc}\p{Cf}\p{Cs}\p{Co}\uFFFE\uFFFF]/gu, (char) => {
    const code = char.codePointAt(0) as number;
    if ("&<>\"'".includes(char)) return `&#${code};`;
    return `⟨U+${code.toString(16).toUpperCase().padStart(4, "0")}⟩`;
  });
}
