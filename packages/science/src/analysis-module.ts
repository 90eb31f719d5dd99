import type { PreparedCompound } from "./prepare-compound.ts";
import type { StagedTarget } from "./target-risk/staged-target.ts";

/** Risk channels of the translational risk index (domain notes), plus modules feeding none. */
export type RiskChannel =
  | "biology"
  | "chemistry"
  | "safety"
  | "manufacturability"
  | "clinical_precedent"
  | "cross_cutting";

/** What a module needs staged to run; a missing one makes it `skipped: missing_input`. */
export type InputKind = "portfolio" | "structures" | "assays" | "targets" | "trajectories";

/**
 * Project-level inputs staged once per run (not per compound), handed to `createRun`. A
 * module reads them only if it lists their kind in `requiredInputs` or `optionalInputs`.
 */
export interface AnalysisContext {
  /** The validated rows of `targets.csv`; null when none was staged. */
  readonly targets: readonly StagedTarget[] | null;
}

/** Every per-compound finding carries an evidence id tying the report back to raw/. */
export interface CompoundFinding {
  readonly candidate_id: string;
  readonly evidence_id: string;
}

/** The findings of the modules that already ran on the same compound, by module id. */
export type UpstreamFindings = ReadonlyMap<string, CompoundFinding>;

/**
 * The run side of a module, made once per run by {@link AnalysisModule.createRun}: stateful only
 * within that run (e.g. duplicate detection), deterministic, no I/O, no RDKit (the main thread may
 * have none). The runner calls the module's `assess` in a worker thread and `merge` here, once per
 * compound in portfolio order, then `finish` (issue 10 item 4; one way only since issue 29 item 1).
 * `upstream` holds the findings of the modules listed before this one in the registry, for the
 * same compound; only a module that declares `reads` uses it.
 */
export interface ModuleRun<C extends CompoundFinding = CompoundFinding, S = unknown> {
  /** Folds what `assess` returned for one compound (structured-cloned from a worker) into the run. */
  merge(assessment: unknown, upstream?: UpstreamFindings): C;
  finish(): S;
}

/**
 * What a module computes and how far to trust it (issue 11: citation, data, validation, limits).
 * It is written into the module's raw output (`summary.method`) and into docs/science.md.
 */
export interface MethodCard {
  readonly what: string;
  readonly citations: readonly string[];
  /** Checked-in data files the method uses (data/PROVENANCE.md describes each). */
  readonly data: readonly string[];
  /** The reference no one here wrote, and the figure measured against it. */
  readonly validation: string;
  readonly limits: string;
}

/**
 * A module of the policy that this build implements (spec §2.5 module framework), as
 * `defineModule` makes it. Generic only in what it returns (findings, summary), so any module is
 * an `AnalysisModule` as it stands.
 */
export interface AnalysisModule<C extends CompoundFinding = CompoundFinding, S = unknown> {
  readonly id: string;
  readonly version: string;
  readonly description: string;
  readonly method: MethodCard;
  readonly requiredInputs: readonly InputKind[];
  /**
   * Inputs the module uses when staged but runs without (it then reports that part
   * `missing_input` itself); the plan notes which were not staged.
   */
  readonly optionalInputs?: readonly InputKind[];
  readonly riskChannel: RiskChannel;
  /**
   * Modules whose per-compound findings this one reads from `upstream`. The registry lists such
   * modules after every module they read (registry.test.ts checks it); one that did not run is
   * simply absent from `upstream`, and the reader reports it missing.
   */
  readonly reads?: readonly string[];
  /** `context`: the run's project-level inputs; absent in tests and benches that stage none. */
  createRun(context?: AnalysisContext): ModuleRun<C, S>;
  /**
   * The per-compound work without the run state, run in a worker thread (the one holding the
   * compound's preparation and RDKit): deterministic, reads only the compound, returns plain data
   * (posted between threads by structured clone). Its type is the module's own, erased by
   * `defineModule` (define-module.ts), the one way to declare a module, so the registry needs no casts.
   */
  assess(compound: PreparedCompound): unknown;
}

/** `EID-<module>-<row index>`: stable across reruns of the same inputs. */
export function evidenceId(moduleId: string, index: number): string {
  return `EID-${moduleId}-${String(index).padStart(6, "0")}`;
}

export function ratio(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 10_000;
}

/** The fields every finding of `moduleId` starts with: the compound's id and its evidence id. */
export function findingBase(moduleId: string, compound: PreparedCompound) {
  return { candidate_id: compound.row.candidateId, evidence_id: evidenceId(moduleId, compound.row.index) };
}

/**
 * The finding of a compound RDKit could not parse, or never judged (`unassessed`: too large, a
 * fault, the time budget): `not_assessed`, with the reason. Each module adds its own keys as null,
 * so a missing value is never read as a measured one.
 */
export function unparseableFinding(moduleId: string, compound: Extract<PreparedCompound, { ok: false }>) {
  return {
    ...findingBase(moduleId, compound),
    status: "not_assessed" as const,
    reason: compound.unassessed === true ? compound.error : `unparseable SMILES: ${compound.error}`,
  };
}
