import type { ClaimStrength } from "@svc/core";
import type { TargetProductProfile } from "@svc/science/decision";
import {
  type AnalysisModule,
  type InputKind,
  type RiskChannel,
  UNAVAILABLE_MODULES,
} from "@svc/science/modules";
import { BUCKETS, type Bucket, findCategory, type Policy } from "./policy.ts";
import type { CategoryResolution } from "./resolve-category.ts";

export type PlannedBucket = Bucket | "not_in_category";
export type SkipReason = "missing_input" | "not_available" | "out_of_scope";

export interface PlanEntry {
  readonly module_id: string;
  readonly bucket: PlannedBucket;
  readonly risk_channel: RiskChannel;
  readonly outcome: "executed" | "skipped" | "failed" | "planned";
  readonly reason: SkipReason | null;
  readonly detail: string | null;
  readonly version: string | null;
}

export interface ModulePlan {
  readonly policy_version: string;
  readonly category: CategoryResolution;
  readonly modules: readonly PlanEntry[];
}

export interface PlanCounts {
  readonly total: number;
  readonly executed: number;
  readonly failed: number;
  readonly skipped: Readonly<Record<SkipReason, number>>;
  readonly required: number;
  readonly required_executed: number;
  readonly coverage_ratio: number;
  readonly missing_required: readonly string[];
  /** Required modules that ran but assessed less than WORK_DONE_THRESHOLD of what they should (issue 37 item 3). */
  readonly work_shortfalls: readonly ModuleWork[];
  /** core's CLAIM_STRENGTHS: the seal signs it and every verifier reads it back (issue 37 item 3). */
  readonly claim_strength: ClaimStrength;
  /** Why the claim is not SUPPORTED, in words, one entry per cause; empty when SUPPORTED. */
  readonly claim_reasons: readonly string[];
}

/** How much of its work a module did: compounds (or compound–structure pairs) assessed of those it should. */
export interface ModuleWork {
  readonly module_id: string;
  readonly assessed: number;
  readonly expected: number;
  /** Why the rest was not assessed, with how many (time budget, cap, fault …). */
  readonly not_done: Readonly<Record<string, number>>;
}

/** What the run did beside the plan, for the claim (issue 37 item 3). */
export interface WorkDone {
  /** Per module that works per compound: assessed of expected. */
  readonly modules: readonly ModuleWork[];
  /** Portfolio rows read, and those that could not be read (unparseable). */
  readonly rows: number;
  readonly unreadable: number;
}

/**
 * A required module that assessed less than this share of the compounds it should (time-outs,
 * faults, a cap) has not done the work a SUPPORTED claim stands on: the run is HYPOTHESIS with the
 * reason. 80% follows the issue's definition; a portfolio loses at most one compound in five.
 */
export const WORK_DONE_THRESHOLD = 0.8;

/** A portfolio with more than this share of rows that cannot be read is HYPOTHESIS: the audit did not see it. */
export const UNREADABLE_THRESHOLD = 0.2;

const NO_WORK: WorkDone = { modules: [], rows: 0, unreadable: 0 };

export const NOT_AVAILABLE = "not available in this build";

/** What the plan needs of an implemented module, per-compound or per-structure (both science's). */
export type PlannableModule = Pick<AnalysisModule, "id" | "version" | "requiredInputs" | "optionalInputs">;

/**
 * Modules a target product profile makes REQUIRED whatever the category's bucket (issue 40 item 4):
 * a CNS programme's audit without brain-penetration evidence is missing proof, not an option.
 */
export const PROFILE_REQUIRED: Readonly<Record<TargetProductProfile, readonly string[]>> = {
  oral_cns: ["cns_penetration"],
  oral_peripheral: [],
  non_oral: [],
};

/**
 * The module plan (pure): every module of the policy with its bucket for the category and what
 * will happen to it. Implemented modules whose inputs are staged are `planned`; the rest are
 * skipped with a reason. Disabled and unlisted modules are out of scope.
 */
export function buildModulePlan(
  policy: Policy,
  category: CategoryResolution,
  implemented: readonly PlannableModule[],
  staged: ReadonlySet<InputKind>,
  profile?: TargetProductProfile,
): ModulePlan {
  const buckets = findCategory(policy, category.category_id)?.buckets;
  if (buckets === undefined) throw new Error(`unknown category ${category.category_id}`);
  const promoted = new Set(profile === undefined ? [] : PROFILE_REQUIRED[profile]);
  const order: { id: string; bucket: PlannedBucket }[] = [];
  for (const id of buckets.required) order.push({ id, bucket: "required" });
  for (const id of promoted)
    if (id in policy.modules && !buckets.required.includes(id)) order.push({ id, bucket: "required" });
  for (const bucket of BUCKETS)
    if (bucket !== "required")
      for (const id of buckets[bucket]) if (!promoted.has(id)) order.push({ id, bucket });
  const listed = new Set(order.map((entry) => entry.id));
  for (const id of Object.keys(policy.modules).sort())
    if (!listed.has(id)) order.push({ id, bucket: "not_in_category" });
  const modules = order.map(({ id, bucket }): PlanEntry => {
    const module = implemented.find((candidate) => candidate.id === id);
    const base = {
      module_id: id,
      bucket,
      risk_channel: policy.modules[id]?.risk_channel ?? "cross_cutting",
      version: module?.version ?? null,
    };
    if (bucket === "disabled" || bucket === "not_in_category") {
      return {
        ...base,
        outcome: "skipped",
        reason: "out_of_scope",
        detail: `${bucket} for ${category.category_id}`,
      };
    }
    if (module === undefined)
      return {
        ...base,
        outcome: "skipped",
        reason: "not_available",
        detail: UNAVAILABLE_MODULES[id] ?? NOT_AVAILABLE,
      };
    const missing = module.requiredInputs.filter((input) => !staged.has(input));
    if (missing.length > 0) {
      return {
        ...base,
        outcome: "skipped",
        reason: "missing_input",
        detail: `not staged: ${missing.join(", ")}`,
      };
    }
    // An optional input not staged: the module runs and reports that part missing_input itself.
    const optional = (module.optionalInputs ?? []).filter((input) => !staged.has(input));
    const notes = [
      ...(promoted.has(id) ? [`required by the target product profile ${profile}`] : []),
      ...(optional.length > 0 ? [`optional input not staged: ${optional.join(", ")}`] : []),
    ];
    return {
      ...base,
      outcome: "planned",
      reason: null,
      detail: notes.length > 0 ? notes.join("; ") : null,
    };
  });
  return { policy_version: policy.policy_version, category, modules };
}

/** Records what actually happened to each planned module. */
export function settlePlan(plan: ModulePlan, failures: ReadonlyMap<string, string>): ModulePlan {
  return {
    ...plan,
    modules: plan.modules.map((entry) => {
      if (entry.outcome !== "planned") return entry;
      const error = failures.get(entry.module_id);
      return error === undefined
        ? { ...entry, outcome: "executed" }
        : { ...entry, outcome: "failed", detail: error };
    }),
  };
}

/**
 * Counts, coverage and claim strength: missing required proof, a required module that did too
 * little of its work, or a portfolio too much of which cannot be read demotes SUPPORTED to
 * HYPOTHESIS, each cause named in `claim_reasons`.
 */
export function countPlan(plan: ModulePlan, work: WorkDone = NO_WORK): PlanCounts {
  const required = plan.modules.filter((entry) => entry.bucket === "required");
  const missing = required.filter((entry) => entry.outcome !== "executed").map((entry) => entry.module_id);
  const skipped = (reason: SkipReason) => plan.modules.filter((entry) => entry.reason === reason).length;
  const requiredExecuted = required.length - missing.length;
  const requiredIds = new Set(required.map((entry) => entry.module_id));
  const shortfalls = work.modules.filter(
    (entry) =>
      requiredIds.has(entry.module_id) &&
      !missing.includes(entry.module_id) &&
      entry.expected > 0 &&
      entry.assessed / entry.expected < WORK_DONE_THRESHOLD,
  );
  const reasons: string[] = [];
  if (missing.length > 0) reasons.push(`required modules that did not run: ${missing.join(", ")}`);
  for (const entry of shortfalls) {
    const why = Object.entries(entry.not_done)
      .map(([reason, count]) => `${count} ${reason}`)
      .join(", ");
    reasons.push(
      `${entry.module_id} assessed ${entry.assessed} of ${entry.expected} (${percent(entry.assessed / entry.expected)}, below ${percent(WORK_DONE_THRESHOLD)})${why ? `: ${why}` : ""}`,
    );
  }
  if (work.rows > 0 && work.unreadable / work.rows > UNREADABLE_THRESHOLD)
    reasons.push(
      `${work.unreadable} of ${work.rows} portfolio rows cannot be read (${percent(work.unreadable / work.rows)}, above ${percent(UNREADABLE_THRESHOLD)})`,
    );
  return {
    total: plan.modules.length,
    executed: plan.modules.filter((entry) => entry.outcome === "executed").length,
    failed: plan.modules.filter((entry) => entry.outcome === "failed").length,
    skipped: {
      missing_input: skipped("missing_input"),
      not_available: skipped("not_available"),
      out_of_scope: skipped("out_of_scope"),
    },
    required: required.length,
    required_executed: requiredExecuted,
    coverage_ratio:
      required.length === 0 ? 1 : Math.round((requiredExecuted / required.length) * 10_000) / 10_000,
    missing_required: missing,
    work_shortfalls: shortfalls,
    claim_strength: reasons.length === 0 ? "SUPPORTED" : "HYPOTHESIS",
    claim_reasons: reasons,
  };
}

function percent(share: number): string {
  return `${Math.floor(share * 1000) / 10}%`;
}
