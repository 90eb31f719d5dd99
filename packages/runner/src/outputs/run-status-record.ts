import { readFile } from "node:fs/promises";
import {
  NO_RUN_COUNTS,
  type PresealReason,
  parseRunStatus,
  type RunStage,
  type RunStatus,
  type RunStatusCounts,
  type RunStatusOutput,
  runStatusPath,
  runStatusPathOfRunDir,
  toInstant,
} from "@svc/core";
import { type ExitCode, RunnerError } from "../runner-error.ts";
import { writeJsonAtomic } from "./atomic-write.ts";

/** How the seal stage ended, as the status record and the exit code say it. */
export type RecordedSeal =
  | { readonly status: "sealed"; readonly sealId: string }
  | { readonly status: "pending_online_verification"; readonly reason: PresealReason };

export interface RunStatusRecorderOptions {
  readonly outputRoot: string;
  readonly runId: string;
  readonly projectId: string;
  readonly now: () => Date;
  /** Called after each stage's record is on disk (the test pause hook, `SVC_TEST_PAUSE_AT_STAGE`). */
  readonly afterEnter?: (stage: RunStage) => Promise<void>;
}

/**
 * The run's status record, `<output-root>/.run-status/<run_id>.json` (docs/contracts/run-status.md,
 * ARCHITECTURE.md convention 11): rewritten whole and atomically (temp file, rename) at every stage
 * boundary, so a reader sees the previous record or the next, never half of one. It lives beside
 * the run folder, never in it: it changes after the outputs are hashed.
 */
export class RunStatusRecorder {
  readonly path: string;
  readonly #now: () => Date;
  readonly #afterEnter: (stage: RunStage) => Promise<void>;
  #record: RunStatus;

  constructor(options: RunStatusRecorderOptions) {
    this.path = runStatusPath(options.outputRoot, options.runId);
    this.#now = options.now;
    this.#afterEnter = options.afterEnter ?? (async () => {});
    const at = toInstant(options.now());
    this.#record = {
      schema: "svc.run-status/v1",
      run_id: options.runId,
      project_id: options.projectId,
      state: "running",
      stage: "plan",
      counts: { ...NO_RUN_COUNTS },
      seal: { status: "none", reason: null, seal_id: null },
      exit_code: null,
      reason: null,
      started_at: at,
      updated_at: at,
    };
  }

  /** The stage the run last entered. */
  get stage(): RunStage {
    return this.#record.stage;
  }

  /** Records that the run entered `stage`, with what it has counted so far. */
  async enter(stage: RunStage, counts: Partial<RunStatusCounts> = {}): Promise<void> {
    await this.#write({ stage, counts: { ...this.#record.counts, ...counts } });
    await this.#afterEnter(stage);
  }

  /** Adds counts without changing the stage. */
  async count(counts: Partial<RunStatusCounts>): Promise<void> {
    await this.#write({ counts: { ...this.#record.counts, ...counts } });
  }

  /** The run's end after the seal stage: sealed (exit 0) or pre-sealed (exit 10), with the outputs hashed for it. */
  async succeed(
    seal: RecordedSeal,
    exitCode: ExitCode,
    reason: string | null,
    outputs: readonly RunStatusOutput[],
  ): Promise<void> {
    await this.#write({
      outputs: [...outputs],
      state: "succeeded",
      seal:
        seal.status === "sealed"
          ? { status: "sealed", reason: null, seal_id: seal.sealId }
          : { status: "pending_online_verification", reason: seal.reason, seal_id: null },
      exit_code: exitCode,
      reason,
    });
  }

  /** The run's end by an error: `interrupted` for a signal, else `failed`, with its exit code. */
  async fail(error: unknown): Promise<void> {
    const known = error instanceof RunnerError;
    await this.#write({
      state: known && error.code === "INTERRUPTED" ? "interrupted" : "failed",
      exit_code: known ? error.exitCode : 1,
      reason: known
        ? `${error.code}: ${error.message}`
        : `INTERNAL: ${(error as Error)?.message ?? String(error)}`,
    });
  }

  async #write(change: Partial<RunStatus>): Promise<void> {
    this.#record = { ...this.#record, ...change, updated_at: toInstant(this.#now()) };
    await writeJsonAtomic(this.path, this.#record);
  }
}

/**
 * `svc-runner seal` completed a pre-seal: the record of that run now says sealed. A run folder
 * without a record (written before records existed, or copied without its output root) gets one
 * from what the pre-seal names.
 */
export async function recordSealCompleted(
  runDir: string,
  run: { runId: string; projectId: string; sealId: string; outputs: readonly RunStatusOutput[] },
  now: () => Date,
): Promise<void> {
  const path = runStatusPathOfRunDir(runDir);
  let known: RunStatus | null = null;
  try {
    known = parseRunStatus(JSON.parse(await readFile(path, "utf8")));
  } catch {
    known = null;
  }
  const at = toInstant(now());
  const record: RunStatus = {
    schema: "svc.run-status/v1",
    run_id: run.runId,
    project_id: run.projectId,
    counts: known?.counts ?? { ...NO_RUN_COUNTS },
    started_at: known?.started_at ?? at,
    state: "succeeded",
    stage: "seal",
    seal: { status: "sealed", reason: null, seal_id: run.sealId },
    exit_code: 0,
    reason: null,
    // the pre-seal's hashes are the seal's: the same outputs
    outputs: [...run.outputs],
    updated_at: at,
  };
  await writeJsonAtomic(path, record);
}
