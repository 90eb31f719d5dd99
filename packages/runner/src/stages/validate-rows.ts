import { RUN_FILES } from "@svc/core";
import type { PortfolioRow } from "../inputs/portfolio.ts";
import { readLines } from "../inputs/read-lines.ts";
import { StreamingFile } from "../outputs/atomic-write.ts";
import { JsonArrayWriter } from "../outputs/json-array-writer.ts";
import type { CompoundPool } from "../pool/compound-pool.ts";
import { exceedsLimits, type MoleculeLimits, molblockExceedsLimits } from "../pool/molecule-guards.ts";
import { mapInOrder } from "../pool/ordered-map.ts";
import type { PortableCompound } from "../pool/portable-compound.ts";
import { RunnerError } from "../runner-error.ts";

export const VALIDATION_FILE = RUN_FILES.validation;
/** The prepared rows in the run's scratch folder, read again by the structure and analyse stages. */
export const PREPARED_CACHE = "prepared.jsonl";

/** `ok`: RDKit prepared it; `invalid`: it does not parse; `unassessed`: too large, faulted or timed out. */
export type RowStatus = "ok" | "invalid" | "unassessed";

/** One portfolio row after validation, with the preparation the analysis reuses. */
export interface ValidatedRow {
  readonly status: RowStatus;
  readonly reason: string | null;
  readonly compound: PortableCompound;
}

export interface RowFailure {
  readonly line: number;
  readonly candidate_id: string;
  readonly reason: string;
}

/** What validation found; recorded in inputs/validation.json and the summary. */
export interface ValidationSummary {
  readonly rows: number;
  readonly ok: number;
  readonly invalid: number;
  readonly unassessed: number;
  /** invalid / rows, 4 decimals. */
  readonly invalid_fraction: number;
  /** The first rows that do not parse (at most {@link FIRST_FAILURES}). */
  readonly first_invalid: readonly RowFailure[];
  readonly first_unassessed: readonly RowFailure[];
}

export const FIRST_FAILURES = 5;

export interface ValidateRowsOptions extends RecordValidationOptions {
  readonly rows: AsyncIterable<PortfolioRow>;
  readonly pool: CompoundPool;
  /** Stops taking rows when it returns true (a signal arrived). */
  readonly stopped?: () => boolean;
}

/**
 * The validate stage's rows (issue 10 item 1): every row goes through the guards and then the same RDKit
 * preparation the analysis uses, in the worker pool, before anything is charged. Streams the
 * per-row report and keeps the prepared rows in scratch so the analysis does not parse twice.
 */
export function validateRows(options: ValidateRowsOptions): Promise<ValidationSummary> {
  const validated = mapInOrder(untilStopped(options.rows, options.stopped), options.pool.size * 4, (row) =>
    validateRow(row, options),
  );
  return recordValidation(validated, options);
}

export interface RecordValidationOptions {
  /** The portfolio file as the messages name it (`01_sources/…`). */
  readonly file: string;
  readonly limits: MoleculeLimits;
  /** Where to stream the per-row report (inputs/validation.json), or null. */
  readonly reportPath: string | null;
  /** Where to keep each prepared row for the analysis (scratch), or null. */
  readonly cachePath: string | null;
  readonly onRow?: (done: number) => void;
}

/**
 * The bookkeeping of validation over validated rows in portfolio order: counts, the first
 * failures, the streamed report and the prepared-row cache. Used for a whole portfolio, for one
 * shard's slice, and for the merge of all shards (which then equals the single-process result).
 */
export async function recordValidation(
  validatedRows: AsyncIterable<ValidatedRow>,
  options: RecordValidationOptions,
): Promise<ValidationSummary> {
  const report =
    options.reportPath === null
      ? null
      : await JsonArrayWriter.open(
          options.reportPath,
          {
            schema: "svc.validation/v1",
            file: options.file,
            limits: {
              max_heavy_atoms: options.limits.maxHeavyAtoms,
              max_smiles_length: options.limits.maxSmilesLength,
            },
          },
          ["rows"],
        );
  const cache = options.cachePath === null ? null : await StreamingFile.open(options.cachePath);
  const counts = { rows: 0, ok: 0, invalid: 0, unassessed: 0 };
  const invalid: RowFailure[] = [];
  const unassessed: RowFailure[] = [];
  try {
    for await (const validated of validatedRows) {
      counts.rows++;
      counts[validated.status === "ok" ? "ok" : validated.status]++;
      const { row } = validated.compound;
      const failure = { line: row.line, candidate_id: row.candidateId, reason: validated.reason ?? "" };
      if (validated.status === "invalid" && invalid.length < FIRST_FAILURES) invalid.push(failure);
      if (validated.status === "unassessed" && unassessed.length < FIRST_FAILURES) unassessed.push(failure);
      await report?.push({
        line: row.line,
        candidate_id: row.candidateId,
        status: validated.status,
        reason: validated.reason,
      });
      await cache?.write(`${JSON.stringify(validated)}\n`);
      options.onRow?.(counts.rows);
    }
  } catch (error) {
    await report?.abort();
    await cache?.abort();
    throw error;
  }
  const summary = summarise(counts, invalid, unassessed);
  await report?.close([{ summary }]);
  await cache?.commit();
  return summary;
}

function summarise(
  counts: { rows: number; ok: number; invalid: number; unassessed: number },
  invalid: readonly RowFailure[],
  unassessed: readonly RowFailure[],
): ValidationSummary {
  return {
    ...counts,
    invalid_fraction: counts.rows === 0 ? 0 : Math.round((counts.invalid / counts.rows) * 10_000) / 10_000,
    first_invalid: invalid,
    first_unassessed: unassessed,
  };
}

/**
 * The summary of a whole portfolio from its shards' summaries: counts add up, and the first
 * failures of the whole are among the first failures of the slices, by line.
 */
export function mergeSummaries(parts: readonly ValidationSummary[]): ValidationSummary {
  const sum = (key: "rows" | "ok" | "invalid" | "unassessed") =>
    parts.reduce((total, part) => total + part[key], 0);
  const first = (key: "first_invalid" | "first_unassessed") =>
    parts
      .flatMap((part) => part[key])
      .sort((a, b) => a.line - b.line)
      .slice(0, FIRST_FAILURES);
  return summarise(
    { rows: sum("rows"), ok: sum("ok"), invalid: sum("invalid"), unassessed: sum("unassessed") },
    first("first_invalid"),
    first("first_unassessed"),
  );
}

async function validateRow(row: PortfolioRow, options: ValidateRowsOptions): Promise<ValidatedRow> {
  const tooLarge =
    row.molblock === undefined
      ? exceedsLimits(row.smiles, options.limits)
      : molblockExceedsLimits(row.molblock, options.limits);
  const outcome =
    tooLarge === null ? await options.pool.prepare(row) : { kind: "unassessed" as const, reason: tooLarge };
  if (outcome.kind === "unassessed") {
    return {
      status: "unassessed",
      reason: outcome.reason,
      compound: { row, ok: false, error: `unassessed: ${outcome.reason}`, unassessed: true },
    };
  }
  const { compound } = outcome;
  return compound.ok
    ? { status: "ok", reason: null, compound }
    : { status: "invalid", reason: compound.error, compound };
}

async function* untilStopped<T>(items: AsyncIterable<T>, stopped?: () => boolean): AsyncGenerator<T> {
  for await (const item of items) {
    if (stopped?.()) return;
    yield item;
  }
}

/**
 * Refuses the portfolio before any charge (exit 2, PORTFOLIO_INVALID) when no row can be
 * assessed or when more than `maxInvalidFraction` of the rows do not parse; the message names the
 * share and the first failing lines.
 */
export function assertAcceptable(summary: ValidationSummary, maxInvalidFraction: number, file: string): void {
  const lines = (failures: readonly RowFailure[]) =>
    failures.map((failure) => `line ${failure.line} (${failure.candidate_id}): ${failure.reason}`).join("; ");
  const share = `${summary.invalid} of ${summary.rows} rows (${(summary.invalid_fraction * 100).toFixed(1)}%)`;
  if (summary.ok === 0) {
    const first = summary.first_invalid.length > 0 ? summary.first_invalid : summary.first_unassessed;
    throw new RunnerError(
      "PORTFOLIO_INVALID",
      `no row of ${file} can be assessed: ${share} do not parse, ${summary.unassessed} unassessed; first failing: ${lines(first)}`,
    );
  }
  if (summary.invalid / summary.rows > maxInvalidFraction) {
    throw new RunnerError(
      "PORTFOLIO_INVALID",
      `${share} of ${file} do not parse, more than --max-invalid-fraction ${maxInvalidFraction} allows; first failing: ${lines(summary.first_invalid)}`,
    );
  }
}

/** The prepared rows kept by {@link validateRows}, streamed back in portfolio order. */
export async function* readValidatedRows(cachePath: string): AsyncGenerator<ValidatedRow> {
  for await (const line of readLines(cachePath)) if (line !== "") yield JSON.parse(line) as ValidatedRow;
}
