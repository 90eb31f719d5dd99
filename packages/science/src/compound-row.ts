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
}
