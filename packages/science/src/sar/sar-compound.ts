/**
 * What the SAR analysis keeps of one compound with measured activities, made in the worker
 * (`assess`) and paired on the main thread in `finish()`: plain data only (structured clone).
 */
export interface SarCompound {
  readonly index: number;
  readonly candidate_id: string;
  readonly murcko_scaffold: string | null;
  /** Assay id → p value (compound-row.ts). */
  readonly activities: Readonly<Record<string, number>>;
  /** Morgan radius 2, 2,048 bits: on-bit indices (fingerprint/morgan.ts). */
  readonly morgan_on_bits: readonly number[];
  /** Hussain–Rea single cuts, the larger part as the constant one (sar-assessment.ts). */
  readonly cuts: readonly SingleCut[];
}

/** One acyclic single bond cut: the constant part, the variable part, and the constant's size. */
export interface SingleCut {
  /** Canonical SMILES of the constant part, the attachment point written `[*:1]`. */
  readonly context: string;
  /** Canonical SMILES of the part that changes, attachment `[*:1]`. */
  readonly variable: string;
  /** Heavy atoms of the constant part (the dummy atom not counted). */
  readonly context_heavy_atoms: number;
}
