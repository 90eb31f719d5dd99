import {
  type AnalysisContext,
  type AnalysisModule,
  type CompoundFinding,
  type InputKind,
  type MethodCard,
  type RiskChannel,
  type UpstreamFindings,
  unparseableFinding,
} from "./analysis-module.ts";
import type { PreparedCompound } from "./prepare-compound.ts";

/** A compound RDKit parsed: the only kind a module's own `assess` ever sees. */
export type ParsedCompound = Extract<PreparedCompound, { ok: true }>;

/** The start of every not-assessed finding: ids, `status: "not_assessed"` and the reason. */
export type NotAssessedBase = ReturnType<typeof unparseableFinding>;

/** Counted by the framework over the findings a run returned: `status` "assessed" or not. */
export interface ModuleCounts {
  readonly assessed: number;
  readonly not_assessed: number;
}

/** The run side of a module: main thread, portfolio order, no RDKit. */
export interface ModuleRunDefinition<F extends CompoundFinding, A, S> {
  /** Folds a parsed compound's assessment (from `assess`, maybe made in a worker) into the run state. */
  merge(assessment: A, upstream: UpstreamFindings | undefined): F;
  /**
   * Optional: sees (and may rewrite) the finding of a compound that never reached `assess`;
   * `index` is the compound's row index (portfolio order, for rankings).
   */
  notAssessed?(finding: F, upstream: UpstreamFindings | undefined, index: number): F;
  finish(counts: ModuleCounts): S;
}

/** What a module file declares (README "Adding a module"); {@link defineModule} makes it runnable. */
export interface ModuleDefinition<F extends CompoundFinding, A, S> {
  readonly id: string;
  readonly version: string;
  readonly description: string;
  readonly method: MethodCard | (() => MethodCard);
  readonly requiredInputs: readonly InputKind[];
  readonly optionalInputs?: readonly InputKind[];
  readonly riskChannel: RiskChannel;
  readonly reads?: readonly string[];
  /**
   * The finding of a compound that did not parse or was never judged, from the framework's base
   * (ids, status, reason): each module adds its own keys as null.
   */
  notAssessed(base: NotAssessedBase, compound: Extract<PreparedCompound, { ok: false }>): F;
  /**
   * Worker side: deterministic, reads only the compound, returns plain data (it crosses threads
   * by structured clone: no functions, class instances or wasm objects).
   */
  assess(compound: ParsedCompound): A;
  /**
   * Which findings count as assessed in `finish`'s counts; by default those with status
   * "assessed". A module whose findings say more (e.g. out of its compound classes) tells here.
   */
  isAssessed?(finding: F): boolean;
  createRun(context?: AnalysisContext): ModuleRunDefinition<F, A, S>;
}

/** What crosses the thread boundary: the module's assessment, or the framework's not-assessed finding. */
type Assessment<F, A> = { readonly assessed: A } | { readonly not_assessed: F; readonly index: number };

/**
 * A module declared once, typed at its definition; the assessment's type is erased here and only
 * here (`unknown`), so the registry lists defined modules with no casts. Compounds that did not
 * parse (or were never judged) never reach the module's `assess`: they get its `notAssessed`
 * finding, and the counts of assessed and not-assessed findings are kept for `finish`.
 */
export function defineModule<F extends CompoundFinding, A, S>(
  definition: ModuleDefinition<F, A, S>,
): AnalysisModule<F, S> {
  const { id, method } = definition;
  const isAssessed =
    definition.isAssessed ?? ((finding: F) => (finding as { status?: unknown }).status === "assessed");
  const assess = (compound: PreparedCompound): Assessment<F, A> =>
    compound.ok
      ? { assessed: definition.assess(compound) }
      : {
          not_assessed: definition.notAssessed(unparseableFinding(id, compound), compound),
          index: compound.row.index,
        };
  return {
    id,
    version: definition.version,
    description: definition.description,
    get method() {
      return typeof method === "function" ? method() : method;
    },
    requiredInputs: definition.requiredInputs,
    ...(definition.optionalInputs === undefined ? {} : { optionalInputs: definition.optionalInputs }),
    riskChannel: definition.riskChannel,
    ...(definition.reads === undefined ? {} : { reads: definition.reads }),
    assess,
    createRun(context) {
      const run = definition.createRun(context);
      let assessed = 0;
      let notAssessed = 0;
      const merge = (assessment: unknown, upstream?: UpstreamFindings): F => {
        const a = assessment as Assessment<F, A>;
        const finding =
          "assessed" in a
            ? run.merge(a.assessed, upstream)
            : (run.notAssessed?.(a.not_assessed, upstream, a.index) ?? a.not_assessed);
        if (isAssessed(finding)) assessed++;
        else notAssessed++;
        return finding;
      };
      return {
        merge,
        finish: () => run.finish({ assessed, not_assessed: notAssessed }),
      };
    },
  };
}

/**
 * A module run in one thread, `assess` then `merge` compound by compound: what the runner does
 * across threads, for tests and benches.
 */
export function inOneThread<F extends CompoundFinding, S>(
  module: AnalysisModule<F, S>,
  context?: AnalysisContext,
) {
  const run = module.createRun(context);
  return {
    analyze: (compound: PreparedCompound, upstream?: UpstreamFindings): F =>
      run.merge(module.assess(compound), upstream),
    finish: (): S => run.finish(),
  };
}
