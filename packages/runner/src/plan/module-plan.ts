import { type AnalysisModule, type InputKind, type RiskChannel, UNAVAILABLE_MODULES } from "@svc/science";
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
  readonly claim_strength: "SUPPORTED" | "HYPOTHESIS";
}

export const NOT_AVAILABLE = "not available in this build";

/** What the plan needs of an implemented module, per-compound (science) or per-structure (runner/src/structure). */
export type PlannableModule = Pick<AnalysisModule, "id" | "version" | "requiredInputs" | "optionalInputs">;

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
): ModulePlan {
  const buckets = findCategory(policy, category.category_id)?.buckets;
  if (buckets === undefined) throw new Error(`unknown category ${category.category_id}`);
  const order: { id: string; bucket: PlannedBucket }[] = [];
  for (const bucket of BUCKETS) for (const id of buckets[bucket]) order.push({ id, bucket });
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
    return {
      ...base,
      outcome: "planned",
      reason: null,
      detail: optional.length > 0 ? `optional input not staged: ${optional.join(", ")}` : null,
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

/** Counts, coverage and claim strength: missing required proof demotes SUPPORTED to HYPOTHESIS. */
export function countPlan(plan: ModulePlan): PlanCounts {
  const required = plan.modules.filter((entry) => entry.bucket === "required");
  const missing = required.filter((entry) => entry.outcome !== "executed").map((entry) => entry.module_id);
  const skipped = (reason: SkipReason) => plan.modules.filter((entry) => entry.reason === reason).length;
  const requiredExecuted = required.length - missing.length;
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
    claim_strength: missing.length === 0 ? "SUPPORTED" : "HYPOTHESIS",
  };
}
