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
 * Project-level inputs staged once per run (not per compound), handed to `createAnalyzer`. A
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
 * Stateful only within one run (e.g. duplicate detection), deterministic, no I/O: the framework
 * feeds compounds in portfolio order and writes what comes back. `upstream` holds the findings of
 * the modules listed before this one in the registry, for the same compound; only a module that
 * declares `reads` uses it (the others ignore it).
 *
 * Two ways to be run (issue 10 item 4, all cores):
 * - `analyze` only: the runner calls it on its main thread, in portfolio order, with the main
 *   thread's RDKit. Always works; every module starts here.
 * - split: the module also has {@link AnalysisModule.assess} and its analyzer has `merge`. The
 *   runner then calls `assess` in a worker thread (that worker's RDKit, the same worker that holds
 *   the compound's preparation) and `merge` on the main thread in portfolio order, so only the
 *   run state (counts, duplicates) is touched there. `analyze` stays and must equal
 *   `merge(assess(compound))` on every compound — the registry test checks this for every
 *   module that is split, over the same compounds, findings and `finish()` alike.
 */
export interface ModuleAnalyzer<C extends CompoundFinding = CompoundFinding, S = unknown, A = C> {
  analyze(compound: PreparedCompound, upstream?: UpstreamFindings): C;
  /**
   * Split modules only: folds one compound's assessment (from `assess`, possibly made in another
   * thread) into the run state and returns the compound's finding, e.g. with `duplicate_of` set.
   * Called once per compound, in portfolio order, with the same `upstream` as `analyze`. No RDKit
   * here (the main thread may have none).
   */
  merge?(assessment: A, upstream?: UpstreamFindings): C;
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

/** A module of the policy that this build implements (spec §2.5 module framework). */
export interface AnalysisModule<C extends CompoundFinding = CompoundFinding, S = unknown, A = C> {
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
  createAnalyzer(context?: AnalysisContext): ModuleAnalyzer<C, S, A>;
  /**
   * Optional: the per-compound work of `analyze` without the run state, so it can run in a worker
   * thread (see {@link ModuleAnalyzer}). Rules: deterministic; reads only the compound (and
   * `compound.rdkit` for an `ok` one); keeps no state between calls other than caches that do not
   * change results (compiled queries, the last parent); returns plain data (it is posted between
   * threads with the structured clone algorithm: no functions, class instances or wasm objects).
   * A module with `assess` must give its analyzer `merge`.
   */
  assess?(compound: PreparedCompound): A;
}

/** True when the module can be run split: `assess` in a worker, `merge` in portfolio order. */
export function isSplitModule(module: AnalysisModule): boolean {
  return typeof module.assess === "function";
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
