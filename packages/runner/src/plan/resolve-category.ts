import { CATEGORY, findCategory, type Policy } from "./policy.ts";

/** What was staged, as far as routing is concerned (no chemistry needed). */
export interface RoutingEvidence {
  readonly structureFiles: number;
  readonly trajectoryFiles: number;
  readonly mdIntent: boolean;
  readonly physicsAuditRequested: boolean;
  readonly assayRows: number;
}

export interface CategoryResolution {
  readonly category_id: string;
  /** `auto` when derived from the inputs, `preset` when forced by --category-preset. */
  readonly resolved_by: "auto" | "preset";
  readonly forced: boolean;
  readonly rule: string;
  readonly evidence: RoutingEvidence;
}

/**
 * Derives the category from the staged inputs (domain notes, "Category routing"). The run mode
 * (standard/deep) is deliberately not an argument: spec §1 item 6. Returns null for an unknown
 * preset so the caller reports it as bad input.
 */
export function resolveCategory(
  policy: Policy,
  evidence: RoutingEvidence,
  preset: string,
): CategoryResolution | null {
  if (preset !== "auto") {
    if (findCategory(policy, preset) === undefined) return null;
    return {
      category_id: preset,
      resolved_by: "preset",
      forced: true,
      rule: "forced by --category-preset",
      evidence,
    };
  }
  const auto = (category_id: string, rule: string): CategoryResolution => ({
    category_id,
    resolved_by: "auto",
    forced: false,
    rule,
    evidence,
  });
  const hasStructure = evidence.structureFiles > 0;
  if (hasStructure && (evidence.trajectoryFiles > 0 || evidence.mdIntent)) {
    return auto(CATEGORY.mdEnabled, "structure staged and trajectories staged or md_intent set");
  }
  if (hasStructure && evidence.physicsAuditRequested) {
    return auto(CATEGORY.physicsAudit, "structure staged and physics_audit_requested set");
  }
  // A staged structure is never dropped (issue 37 item 1): with assays too, the run docks in a
  // structure category, whose policy lists sar_explorer, so the assays still feed the SAR and the
  // order. HAS_LABELED_ASSAYS (which disables docking) is for assays without a structure, or forced.
  if (hasStructure)
    return auto(
      CATEGORY.structureNoMd,
      evidence.assayRows > 0
        ? "structure and labeled assays staged: the structure category, so the structure is docked and the assays feed sar_explorer"
        : "structure staged, no trajectory intent",
    );
  if (evidence.assayRows > 0)
    return auto(CATEGORY.labeledAssays, "labeled assay table with at least one row");
  return auto(CATEGORY.ligandOnly, "ligands only: no structure, no assay table");
}
