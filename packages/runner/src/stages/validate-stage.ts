import { once } from "node:events";
import { createReadStream } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { PortfolioRow } from "../inputs/portfolio.ts";
import { StreamingFile } from "../outputs/atomic-write.ts";
import { JsonArrayWriter } from "../outputs/json-array-writer.ts";
import type { CompoundPool } from "../pool/compound-pool.ts";
import { exceedsLimits, type MoleculeLimits, molblockExceedsLimits } from "../pool/molecule-guards.ts";
import { mapInOrder } from "../pool/ordered-map.ts";
import type { PortableCompound } from "../pool/portable-compound.ts";
import { RunnerError } from "../runner-error.ts";

export const VALIDATION_FILE = join("inputs", "validation.json");

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

export interface ValidateRowsOptions {
  readonly rows: AsyncIterable<PortfolioRow>;
  readonly pool: CompoundPool;
  readonly limits: MoleculeLimits;
  /** The portfolio file as the messages name it (`01_sources/…`). */
  readonly file: string;
  /** Where to stream the per-row report (inputs/validation.json), or null. */
  readonly reportPath: string | null;
  /** Where to keep each prepared row for the analysis (scratch), or null. */
  readonly cachePath: string | null;
  readonly onRow?: (done: number) => void;
  /** Stops taking rows when it returns true (a signal arrived). */
  readonly stopped?: () => boolean;
}

/**
 * Stage 1, validate (issue 10 item 1): every row goes through the guards and then the same RDKit
 * preparation the analysis uses, in the worker pool, before anything is charged. Streams the
 * per-row report and keeps the prepared rows in scratch so the analysis does not parse twice.
 */
export async function validateRows(options: ValidateRowsOptions): Promise<ValidationSummary> {
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
  let rows = 0;
  let ok = 0;
  const invalid: RowFailure[] = [];
  const unassessed: RowFailure[] = [];
  let invalidCount = 0;
  let unassessedCount = 0;
  try {
    for await (const validated of mapInOrder(
      untilStopped(options.rows, options.stopped),
      options.pool.size * 4,
      (row) => validateRow(row, options),
    )) {
      rows++;
      const { row } = validated.compound;
      if (validated.status === "ok") ok++;
      else {
        const failure = { line: row.line, candidate_id: row.candidateId, reason: validated.reason ?? "" };
        if (validated.status === "invalid") {
          invalidCount++;
          if (invalid.length < FIRST_FAILURES) invalid.push(failure);
        } else {
          unassessedCount++;
          if (unassessed.length < FIRST_FAILURES) unassessed.push(failure);
        }
      }
      await report?.push({
        line: row.line,
        candidate_id: row.candidateId,
        status: validated.status,
        reason: validated.reason,
      });
      await cache?.write(`${JSON.stringify(validated)}\n`);
      options.onRow?.(rows);
    }
  } catch (error) {
    await report?.abort();
    await cache?.abort();
    throw error;
  }
  const summary: ValidationSummary = {
    rows,
    ok,
    invalid: invalidCount,
    unassessed: unassessedCount,
    invalid_fraction: rows === 0 ? 0 : Math.round((invalidCount / rows) * 10_000) / 10_000,
    first_invalid: invalid,
    first_unassessed: unassessed,
  };
  await report?.close([{ summary }]);
  await cache?.commit();
  return summary;
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
      compound: { row, ok: false, error: `unassessed: ${outcome.reason}` },
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
  const input = createReadStream(cachePath, { encoding: "utf8" });
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  try {
    for await (const line of lines) if (line !== "") yield JSON.parse(line) as ValidatedRow;
  } finally {
    lines.close();
    input.destroy();
    if (!input.closed) await once(input, "close");
  }
}
