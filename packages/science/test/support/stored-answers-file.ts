// The shape of test/answers/<name>.json (stored-answers.ts writes and reads it,
// stored-answers-provenance.ts lists it).

/** A JSON value a stored answer may hold: finite numbers only (JSON has no NaN). */
export type AnswerValue =
  | string
  | number
  | boolean
  | null
  | readonly AnswerValue[]
  | { readonly [key: string]: AnswerValue };

/** One case's answer as stored: the fields the test derives its figures from (never a CPU time). */
export type AnswerRecord = { readonly [field: string]: AnswerValue };

/** The stored file, `test/answers/<name>.json`. */
export interface StoredAnswersFile {
  /** The test that computed the answers (repository path). */
  readonly test: string;
  /** The command that recomputes every case and rewrites this file. */
  readonly regenerate: string;
  /** The versions of the programs the answers were computed with, as `structureToolVersions` reports them. */
  readonly tools: Readonly<Record<string, string | null>>;
  /** The day (UTC, YYYY-MM-DD) the answers were computed. */
  readonly computed_on: string;
  /** The cases an ordinary run recomputes and compares. */
  readonly sample: readonly string[];
  /** Per case id: the digest of the inputs the test named for it, and its answer. */
  readonly answers: Readonly<
    Record<string, { readonly inputs_sha256: string; readonly answer: AnswerRecord }>
  >;
}
