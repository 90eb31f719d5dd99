import { readFileSync } from "node:fs";
import type { RiskChannel } from "@svc/science/modules";

export type Bucket = "required" | "optional" | "exploratory" | "disabled";
export const BUCKETS: readonly Bucket[] = ["required", "optional", "exploratory", "disabled"];

export interface CategoryPolicy {
  readonly category_id: string;
  readonly intent: string;
  readonly buckets: Readonly<Record<Bucket, readonly string[]>>;
}

/** The project's own versioned policy (src/plan/category-policy.v1.json). */
export interface Policy {
  readonly policy_version: string;
  readonly derived_from: string;
  readonly risk_channels: readonly RiskChannel[];
  readonly modules: Readonly<Record<string, { readonly risk_channel: RiskChannel }>>;
  readonly categories: readonly CategoryPolicy[];
}

/** The five category ids, in the order the resolver considers them. */
export const CATEGORY = {
  ligandOnly: "SMALL_MOLECULE__LIGAND_ONLY__NO_STRUCTURE__NO_ASSAYS",
  structureNoMd: "SMALL_MOLECULE__STRUCTURE_PRESENT__NO_MD_TRAJ",
  mdEnabled: "SMALL_MOLECULE__STRUCTURE_PRESENT__MD_ENABLED",
  physicsAudit: "SMALL_MOLECULE__STRUCTURE_PRESENT__PHYSICS_AUDIT_ELIGIBLE",
  labeledAssays: "SMALL_MOLECULE__HAS_LABELED_ASSAYS",
} as const;

let cached: Policy | null = null;

/** Loads and checks the bundled policy once: every bucketed module has a risk channel. */
export function loadPolicy(): Policy {
  if (cached !== null) return cached;
  const url = new URL("./category-policy.v1.json", import.meta.url);
  const policy = JSON.parse(readFileSync(url, "utf8")) as Policy;
  assertPolicy(policy);
  cached = Object.freeze(policy);
  return cached;
}

export function assertPolicy(policy: Policy): void {
  const problems: string[] = [];
  const ids = policy.categories.map((category) => category.category_id);
  for (const id of Object.values(CATEGORY)) if (!ids.includes(id)) problems.push(`missing category ${id}`);
  for (const category of policy.categories) {
    const seen = new Set<string>();
    for (const bucket of BUCKETS) {
      for (const moduleId of category.buckets[bucket]) {
        if (!(moduleId in policy.modules))
          problems.push(`${category.category_id}: ${moduleId} has no module entry`);
        if (seen.has(moduleId)) problems.push(`${category.category_id}: ${moduleId} in two buckets`);
        seen.add(moduleId);
      }
    }
  }
  if (problems.length > 0) throw new Error(`category policy invalid: ${problems.join("; ")}`);
}

export function findCategory(policy: Policy, categoryId: string): CategoryPolicy | undefined {
  return policy.categories.find((category) => category.category_id === categoryId);
}
