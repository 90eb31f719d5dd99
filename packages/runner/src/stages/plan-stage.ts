import type { InputKind } from "@svc/science/modules";
import { IMPLEMENTED_MODULES } from "@svc/science/modules";
import { STRUCTURE_MODULES } from "@svc/science/structure-modules";
import type { StagedInputs } from "../inputs/stage-inputs.ts";
import { buildModulePlan, type ModulePlan } from "../plan/module-plan.ts";
import { loadPolicy, type Policy } from "../plan/policy.ts";
import { type CategoryResolution, resolveCategory } from "../plan/resolve-category.ts";
import { RunnerError } from "../runner-error.ts";
import type { PreChargeContext, Stage } from "./stage.ts";

/** What the plan stage decides: the category and what happens to every module of the policy. */
export interface PlannedRun {
  readonly policy: Policy;
  readonly category: CategoryResolution;
  readonly plan: ModulePlan;
}

/**
 * Stage 1, plan (spec §3): resolves the category from the staged evidence (or the preset) and
 * builds the module plan. Pure apart from reading the bundled policy; no entitlement call. A run
 * and `svc-runner validate` both run this stage (the latter reports the plan and stops).
 */
export const planStage: Stage<StagedInputs, PlannedRun, PreChargeContext> = {
  name: "plan",
  run: async (ctx, staged) => {
    const { categoryPreset } = ctx.config;
    const policy = loadPolicy();
    const category = resolveCategory(policy, routingEvidence(staged), categoryPreset);
    if (category === null) {
      throw new RunnerError(
        "CATEGORY_UNKNOWN",
        `--category-preset "${categoryPreset}" is not a category of ${policy.policy_version}`,
      );
    }
    return {
      policy,
      category,
      plan: buildModulePlan(
        policy,
        category,
        [...IMPLEMENTED_MODULES, ...STRUCTURE_MODULES],
        stagedKinds(staged),
        staged.sources.profile,
      ),
    };
  },
};

function routingEvidence(staged: StagedInputs) {
  return {
    structureFiles: staged.structureFiles.length,
    trajectoryFiles: staged.trajectoryFiles.length,
    mdIntent: staged.sources.md_intent,
    physicsAuditRequested: staged.sources.physics_audit_requested,
    assayRows: staged.assayRowCount,
  };
}

function stagedKinds(staged: StagedInputs): Set<InputKind> {
  const kinds = new Set<InputKind>(["portfolio"]);
  if (staged.structureFiles.length > 0) kinds.add("structures");
  if (staged.assayRowCount > 0) kinds.add("assays");
  if (staged.targetsRowCount > 0) kinds.add("targets");
  if (staged.trajectoryFiles.length > 0) kinds.add("trajectories");
  return kinds;
}
