/** One input compound as the science modules see it (the runner's portfolio row has this shape). */
export interface CompoundRow {
  /** 1-based index among data rows; evidence ids are built from it. */
  readonly index: number;
  readonly line: number;
  readonly candidateId: string;
  readonly name: string | null;
  readonly smiles: string;
  /** Customer columns carried forward unchanged. */
  readonly metadata: Readonly<Record<string, string>>;
  /**
   * Measured activities joined from the staged `assays.csv` by candidate id: assay id → value on a
   * log scale where higher means more active (pIC50, pKi, pEC50; replicates averaged). Absent when
   * no assays were staged or the compound has none; read only by the assay-driven modules
   * (`sar_explorer`, `y_scramble_validation`).
   */
  readonly activities?: Readonly<Record<string, number>>;
}
