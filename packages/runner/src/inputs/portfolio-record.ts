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

/**
 * Header aliases, matched case-insensitively (issue 10 item 8): the first alias present wins.
 * Chemists' files say `SMILES`, `canonical_smiles`, `compound_id`, `ID`.
 */
export const COLUMN_ALIASES = {
  smiles: ["smiles", "canonical_smiles"],
  id: ["candidate_id", "compound_id", "id"],
  name: ["name"],
} as const;

/** The index of the first alias present in `header` (case-insensitive), or -1. */
export function findColumn(header: readonly string[], aliases: readonly string[]): number {
  const lower = header.map((column) => column.trim().toLowerCase());
  for (const alias of aliases) {
    const at = lower.indexOf(alias);
    if (at >= 0) return at;
  }
  return -1;
}
