import type { TargetProductProfile } from "@svc/science/decision";
import type { CompoundFinding, RiskChannel } from "@svc/science/modules";
import type { ModulePlan, PlanCounts } from "../plan/module-plan.ts";
import type { Policy } from "../plan/policy.ts";

/** Everything the result files are built from; pure data, gathered by run-audit.ts. */
export interface RunFacts {
  readonly run_id: string;
  readonly project_id: string;
  readonly mode: "standard" | "deep";
  readonly module_id: string;
  readonly generated_at: string;
  readonly policy: Policy;
  readonly plan: ModulePlan;
  readonly counts: PlanCounts;
  readonly inputs_sha256: string;
  readonly compounds: number;
  readonly summaries: ReadonlyMap<string, unknown>;
  readonly primary_candidate_id: string | null;
  readonly primary_findings: Readonly<Record<string, CompoundFinding>> | null;
  readonly context: Readonly<Record<string, unknown>>;
  /** The target product profile the compounds were ordered against (sources.json `profile`). */
  readonly profile: TargetProductProfile;
  /** Row validation before the charge (inputs/validation.json). */
  readonly validation: {
    readonly ok: number;
    readonly invalid: number;
    readonly unassessed: number;
    readonly first_unassessed: readonly { line: number; candidate_id: string; reason: string }[];
  };
}

export const RISK_CHANNELS: readonly Exclude<RiskChannel, "cross_cutting">[] = [
  "biology",
  "chemistry",
  "safety",
  "manufacturability",
  "clinical_precedent",
];
