/**
 * True when `text` is the one standard base64 spelling (RFC 4648 §4: the standard alphabet,
 * padded, unused pad bits zero, §3.5) of the bytes it decodes to. Every base64 in `seal/` must
 * be canonical, so no file has two byte versions that verify (issue 38 item 7). Decoding and
 * encoding again is linear in the input; a regex such as `^(?:[A-Za-z0-9+/]{4})*…$` over an
 * 8 MiB DSSE payload overflowed V8's regexp stack ("Maximum call stack size exceeded", issue 38
 * item 8). Node's decoder skips characters outside the alphabet and accepts base64url, but the
 * re-encoding then differs, so neither passes.
 */
export function isCanonicalBase64(text: string): boolean {
  if (text.length % 4 !== 0) return false;
  return Buffer.from(text, "base64").toString("base64") === text;
}
