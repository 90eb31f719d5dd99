import type { Mol } from "../rdkit.ts";

/**
 * Morgan (circular, ECFP4-like) fingerprint as RDKit hashes it: radius 2 folded to 2,048 bits
 * (Rogers & Hahn, J. Chem. Inf. Model. 2010, 50, 742). RDKit WebAssembly exposes only this hashed
 * bit form; native RDKit's `GetMorganFingerprintAsBitVect(mol, 2, nBits=2048)` gives the same bits.
 */
export const MORGAN_RADIUS = 2;
export const MORGAN_BITS = 2048;
const WORDS = MORGAN_BITS / 32;
const OPTIONS = JSON.stringify({ radius: MORGAN_RADIUS, nBits: MORGAN_BITS });

/** A 2,048-bit fingerprint packed in 64 32-bit words. */
export type Fingerprint = Uint32Array;

/** The on-bit indices of a molecule's Morgan fingerprint, ascending. */
export function morganOnBits(mol: Mol): number[] {
  const text = mol.get_morgan_fp(OPTIONS);
  const bits: number[] = [];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 49) bits.push(i);
  return bits;
}

export function packBits(onBits: readonly number[]): Fingerprint {
  const fp = new Uint32Array(WORDS);
  for (const bit of onBits) fp[bit >>> 5] = (fp[bit >>> 5] ?? 0) | (1 << (bit & 31));
  return fp;
}

export function morganFingerprint(mol: Mol): Fingerprint {
  return packBits(morganOnBits(mol));
}

/** Set bits in a 32-bit word (SWAR count). */
export function popcount(word: number): number {
  let v = word - ((word >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

export function bitCount(fp: Fingerprint): number {
  let n = 0;
  for (let i = 0; i < fp.length; i++) n += popcount(fp[i] ?? 0);
  return n;
}

/** Tanimoto (Jaccard) similarity |A∩B| / |A∪B| of two bit sets; 0 when both are empty. */
export function tanimoto(a: Fingerprint, b: Fingerprint): number {
  let both = 0;
  let either = 0;
  for (let i = 0; i < WORDS; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    both += popcount(x & y);
    either += popcount(x | y);
  }
  return either === 0 ? 0 : both / either;
}

/** On-bit indices as three hex digits each (0–7ff): the compact text form of the data files. */
export function encodeOnBits(onBits: readonly number[]): string {
  return onBits.map((bit) => bit.toString(16).padStart(3, "0")).join("");
}

export function decodeOnBits(text: string): number[] {
  const bits: number[] = [];
  // Digit by digit from the character codes (every worker decodes ~70,000 such strings at warm-up;
  // parseInt of a slice cost three times as much); anything but three hex digits goes to parseInt.
  for (let i = 0; i + 3 <= text.length; i += 3) {
    const a = hexValue(text.charCodeAt(i));
    const b = hexValue(text.charCodeAt(i + 1));
    const c = hexValue(text.charCodeAt(i + 2));
    bits.push(a < 0 || b < 0 || c < 0 ? Number.parseInt(text.slice(i, i + 3), 16) : (a << 8) | (b << 4) | c);
  }
  return bits;
}

/** The value of a hex digit's character code (0-9, a-f, A-F), −1 for any other. */
function hexValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 102) return code - 87;
  if (code >= 65 && code <= 70) return code - 55;
  return -1;
}
