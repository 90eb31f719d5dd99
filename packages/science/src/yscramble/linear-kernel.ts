import { bitCount, type Fingerprint, popcount } from "../fingerprint/morgan.ts";

/**
 * The Gram matrix K = X Xᵀ of 0/1 fingerprint rows (row-major, n × n): K_ij is the number of bits
 * two fingerprints share. Ridge regression on the bits needs nothing else (dual form, Saunders,
 * Gammerman & Vovk, ICML 1998), so 2,048 features cost one n × n matrix.
 */
export function fingerprintGram(fingerprints: readonly Fingerprint[]): Float64Array {
  const n = fingerprints.length;
  const k = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    const a = fingerprints[i] as Fingerprint;
    k[i * n + i] = bitCount(a);
    for (let j = 0; j < i; j++) {
      const b = fingerprints[j] as Fingerprint;
      let shared = 0;
      for (let w = 0; w < a.length; w++) shared += popcount((a[w] ?? 0) & (b[w] ?? 0));
      k[i * n + j] = shared;
      k[j * n + i] = shared;
    }
  }
  return k;
}
