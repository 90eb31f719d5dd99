/** Standard base64 (RFC 4648 §4) of 64 bytes: 86 characters, `==`, then an optional line end. */
const SEAL_SIG_LINE = /^([A-Za-z0-9+/]{86}==)(?:\r?\n)?$/;

/**
 * Reads `seal.sig`: exactly one line of standard, padded base64 of a 64-byte Ed25519 signature, as
 * issueSealBundle writes it. Anything else is null (issue 23 item 10): Node's base64 decoder skips
 * characters outside the alphabet, so a lenient read would accept a seal.sig with words inserted
 * into it as the genuine signature. Non-canonical spellings (non-zero pad bits) are refused too.
 */
export function decodeSealSig(text: string): Buffer | null {
  const line = SEAL_SIG_LINE.exec(text)?.[1];
  if (line === undefined) return null;
  const signature = Buffer.from(line, "base64");
  return signature.length === 64 && signature.toString("base64") === line ? signature : null;
}
