/** One structure as a portfolio file states it, before ids are settled (any format). */
export interface SourceRecord {
  /** 1-based line where the record starts (for messages and validation.json). */
  readonly line: number;
  /** The candidate id the file gives, or null (the row is then `row_<n>`). */
  readonly id: string | null;
  readonly name: string | null;
  /** SMILES as written; empty for an SDF record (RDKit reads its molblock instead). */
  readonly smiles: string;
  /** MDL molblock (V2000 or V3000) of an SDF record, else null. */
  readonly molblock: string | null;
  /** Other columns or SD properties, carried forward unchanged. */
  readonly metadata: Readonly<Record<string, string>>;
}
