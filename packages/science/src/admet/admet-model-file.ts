/** Fields the BBB and logD model files share (written by `scripts/train-admet-models.ts`). */
export interface AdmetModelFileBase {
  readonly generated_by: string;
  readonly training_set: string;
  readonly rdkit_version: string;
  readonly fingerprint: { readonly kind: "morgan"; readonly radius: number; readonly bits: number };
  readonly split: {
    readonly kind: "scaffold";
    readonly source: "scaffold-splits.json";
    readonly train: number;
    readonly valid: number;
    readonly test: number;
    readonly note: string;
  };
  /** Per dataset row: t(rain), v(alid), s (test) or x (refused). */
  readonly row_split: string;
  /** Per dataset row: the parent's Morgan on-bits (three hex digits each), "" for a refused row. */
  readonly row_bits: readonly string[];
  /** The applicability-domain limit: this percentile of the reference rows' leave-one-out max Tanimoto. */
  readonly domain: { readonly percentile: number; readonly min_tanimoto: number; readonly reference: string };
  /** Whether the model beat the rule baseline on the test rows and is reported per compound. */
  readonly adopted: boolean;
}
