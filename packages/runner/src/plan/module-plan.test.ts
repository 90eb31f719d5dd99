import assert from "node:assert/strict";
import { test } from "node:test";
import { IMPLEMENTED_MODULES } from "@svc/science/modules";
import { STRUCTURE_MODULES } from "@svc/science/structure-modules";
import { buildModulePlan, countPlan, NOT_AVAILABLE, settlePlan } from "./module-plan.ts";
import { CATEGORY, loadPolicy } from "./policy.ts";
import { resolveCategory } from "./resolve-category.ts";

const none = {
  structureFiles: 0,
  trajectoryFiles: 0,
  mdIntent: false,
  physicsAuditRequested: false,
  assayRows: 0,
};

test("the category follows what was staged", () => {
  const policy = loadPolicy();
  const id = (evidence: Partial<typeof none>) =>
    resolveCategory(policy, { ...none, ...evidence }, "auto")?.category_id;
  assert.equal(id({}), CATEGORY.ligandOnly);
  assert.equal(id({ structureFiles: 1 }), CATEGORY.structureNoMd);
  assert.equal(id({ structureFiles: 1, trajectoryFiles: 2 }), CATEGORY.mdEnabled);
  assert.equal(id({ structureFiles: 1, mdIntent: true }), CATEGORY.mdEnabled);
  assert.equal(id({ structureFiles: 1, physicsAuditRequested: true }), CATEGORY.physicsAudit);
  assert.equal(id({ physicsAuditRequested: true }), CATEGORY.ligandOnly, "physics audit needs a structure");
  assert.equal(id({ assayRows: 10 }), CATEGORY.labeledAssays);
});

test("assays and a structure staged together route to the structure category, where docking is required and sar_explorer still reads the assays: the structure is never silently dropped (issue 37 item 1)", () => {
  const policy = loadPolicy();
  const category = resolveCategory(policy, { ...none, structureFiles: 1, assayRows: 30 }, "auto");
  assert.equal(category?.category_id, CATEGORY.structureNoMd);
  assert.match(category?.rule ?? "", /structure and labeled assays/);
  assert.ok(category);
  const plan = buildModulePlan(
    policy,
    category,
    [...IMPLEMENTED_MODULES, ...STRUCTURE_MODULES],
    new Set(["portfolio", "structures", "assays"]),
  );
  const byId = new Map(plan.modules.map((m) => [m.module_id, m]));
  assert.equal(byId.get("molecular_docking")?.bucket, "required");
  assert.equal(byId.get("molecular_docking")?.outcome, "planned");
  assert.equal(byId.get("sar_explorer")?.outcome, "planned");
});

test("claim strength follows the work done: a required module that assessed under 80% of its compounds, or a portfolio over 20% unreadable, is HYPOTHESIS with the reason (issue 37 item 3)", () => {
  const policy = loadPolicy();
  const category = resolveCategory(policy, { ...none, structureFiles: 1 }, "auto");
  assert.ok(category);
  const plan = settlePlan(
    buildModulePlan(
      policy,
      category,
      [...IMPLEMENTED_MODULES, ...STRUCTURE_MODULES],
      new Set(["portfolio", "structures"]),
    ),
    new Map(),
  );
  const full = countPlan(plan, {
    modules: [{ module_id: "molecular_docking", assessed: 6, expected: 6, not_done: {} }],
    rows: 10,
    unreadable: 0,
  });
  assert.equal(full.claim_strength, "SUPPORTED");
  assert.deepEqual(full.claim_reasons, []);
  // 5 of 6 docked compounds killed by the time budget: the case the issue observed sealed SUPPORTED.
  const timedOut = countPlan(plan, {
    modules: [{ module_id: "molecular_docking", assessed: 1, expected: 6, not_done: { "time budget": 5 } }],
    rows: 10,
    unreadable: 0,
  });
  assert.equal(timedOut.claim_strength, "HYPOTHESIS");
  assert.deepEqual(timedOut.missing_required, []);
  assert.equal(timedOut.work_shortfalls[0]?.module_id, "molecular_docking");
  assert.match(
    timedOut.claim_reasons[0] ?? "",
    /molecular_docking assessed 1 of 6 \(16\.6%, below 80%\): 5 time budget/,
  );
  // At exactly 80% the work counts as done.
  assert.equal(
    countPlan(plan, {
      modules: [{ module_id: "molecular_docking", assessed: 8, expected: 10, not_done: { cap: 2 } }],
      rows: 10,
      unreadable: 0,
    }).claim_strength,
    "SUPPORTED",
  );
  // A module outside the required bucket does not lower the claim.
  assert.equal(
    countPlan(plan, {
      modules: [{ module_id: "dynamics_nma", assessed: 0, expected: 4, not_done: {} }],
      rows: 10,
      unreadable: 0,
    }).claim_strength,
    "SUPPORTED",
  );
  const unreadable = countPlan(plan, { modules: [], rows: 10, unreadable: 4 });
  assert.equal(unreadable.claim_strength, "HYPOTHESIS");
  assert.match(unreadable.claim_reasons[0] ?? "", /4 of 10 portfolio rows cannot be read \(40%, above 20%\)/);
  assert.equal(countPlan(plan, { modules: [], rows: 10, unreadable: 2 }).claim_strength, "SUPPORTED");
});

test("a preset forces the category and the plan records it; an unknown preset resolves to nothing", () => {
  const policy = loadPolicy();
  const forced = resolveCategory(policy, none, CATEGORY.labeledAssays);
  assert.equal(forced?.forced, true);
  assert.equal(forced?.resolved_by, "preset");
  assert.equal(resolveCategory(policy, none, "NOPE"), null);
});

test("the plan lists every policy module once, with not_available and out_of_scope modules never executed", () => {
  const policy = loadPolicy();
  const category = resolveCategory(policy, none, "auto");
  assert.ok(category);
  const plan = buildModulePlan(policy, category, IMPLEMENTED_MODULES, new Set(["portfolio"]));
  assert.equal(plan.modules.length, Object.keys(policy.modules).length);
  assert.equal(new Set(plan.modules.map((m) => m.module_id)).size, plan.modules.length);
  const byId = new Map(plan.modules.map((m) => [m.module_id, m]));
  assert.equal(byId.get("molecular_logic")?.outcome, "planned");
  assert.equal(byId.get("cyp_assessment")?.outcome, "planned");
  for (const m of plan.modules.filter(
    (entry) => entry.bucket === "required" && entry.reason === "not_available",
  ))
    assert.notEqual(
      m.detail,
      NOT_AVAILABLE,
      `${m.module_id}: a required module says why it is not available`,
    );
  assert.equal(byId.get("molecular_docking")?.reason, "out_of_scope");
  const counts = countPlan(settlePlan(plan, new Map()));
  // issue 26: with cyp_assessment, target_biology_risk and gcn_toxicity every required ligand module runs
  assert.equal(counts.claim_strength, "SUPPORTED");
  assert.deepEqual(counts.missing_required, []);
  assert.equal(counts.required, 14);
  const implementedRequired = plan.modules.filter((m) => m.bucket === "required" && m.outcome === "planned");
  assert.equal(counts.required_executed, implementedRequired.length);
  assert.equal(implementedRequired.length, 14);
  for (const id of ["clinical_precedent_prior", "uncertainty_quantification"])
    assert.equal(byId.get(id)?.outcome, "planned", id);
  assert.equal(byId.get("gcn_toxicity")?.outcome, "planned");
});

test("a failed module is recorded with its error and counts as missing proof", () => {
  const policy = loadPolicy();
  const category = resolveCategory(policy, none, "auto");
  assert.ok(category);
  const plan = settlePlan(
    buildModulePlan(policy, category, IMPLEMENTED_MODULES, new Set(["portfolio"])),
    new Map([["kinase_drug_likeness", "boom"]]),
  );
  const entry = plan.modules.find((m) => m.module_id === "kinase_drug_likeness");
  assert.equal(entry?.outcome, "failed");
  assert.equal(entry?.detail, "boom");
  assert.ok(countPlan(plan).missing_required.includes("kinase_drug_likeness"));
});

test("a module whose inputs are not staged is skipped as missing_input", () => {
  const policy = loadPolicy();
  const category = resolveCategory(policy, none, "auto");
  assert.ok(category);
  const plan = buildModulePlan(policy, category, IMPLEMENTED_MODULES, new Set());
  assert.equal(plan.modules.find((m) => m.module_id === "molecular_logic")?.reason, "missing_input");
});

test("a module with an optional input runs without it, and the plan says which optional input was not staged", () => {
  const policy = loadPolicy();
  const category = resolveCategory(policy, none, "auto");
  assert.ok(category);
  const entry = (staged: Set<"portfolio" | "targets">) =>
    buildModulePlan(policy, category, IMPLEMENTED_MODULES, staged).modules.find(
      (m) => m.module_id === "target_biology_risk",
    );
  const without = entry(new Set(["portfolio"]));
  assert.equal(without?.outcome, "planned");
  assert.equal(without?.detail, "optional input not staged: targets");
  const withTargets = entry(new Set(["portfolio", "targets"]));
  assert.equal(withTargets?.outcome, "planned");
  assert.equal(withTargets?.detail, null);
});

test("a staged structure routes to STRUCTURE_PRESENT, plans dynamics_nma and molecular_docking, and names why the MD modules do not run (issue 25)", () => {
  const policy = loadPolicy();
  const modules = [...IMPLEMENTED_MODULES, ...STRUCTURE_MODULES];
  const entry = (categoryId: string | undefined, id: string, staged: string[]) => {
    const category = resolveCategory(policy, none, categoryId ?? "");
    assert.ok(category);
    return buildModulePlan(policy, category, modules, new Set(staged as never[])).modules.find(
      (candidate) => candidate.module_id === id,
    );
  };
  const routed = resolveCategory(policy, { ...none, structureFiles: 1 }, "auto");
  assert.equal(routed?.category_id, "SMALL_MOLECULE__STRUCTURE_PRESENT__NO_MD_TRAJ");
  const withStructure = ["portfolio", "structures"];
  assert.equal(entry(CATEGORY.structureNoMd, "dynamics_nma", withStructure)?.outcome, "planned");
  assert.equal(entry(CATEGORY.mdEnabled, "dynamics_nma", withStructure)?.bucket, "required");
  assert.equal(entry(CATEGORY.mdEnabled, "dynamics_nma", withStructure)?.outcome, "planned");
  assert.equal(entry(CATEGORY.structureNoMd, "molecular_docking", withStructure)?.outcome, "planned");
  const md = entry(CATEGORY.mdEnabled, "msm_analysis", withStructure);
  assert.equal(md?.reason, "not_available");
  assert.match(md?.detail ?? "", /not packaged in Debian 12 \(python3-pyemma, python3-deeptime\)/);
  assert.equal(entry(CATEGORY.mdEnabled, "dynamics_nma", ["portfolio"])?.reason, "missing_input");
});

test("cns_penetration is optional in every category and required when the target product profile is oral_cns (issue 40 item 4)", () => {
  const policy = loadPolicy();
  const modules = [...IMPLEMENTED_MODULES, ...STRUCTURE_MODULES];
  for (const category of policy.categories) {
    const resolution = resolveCategory(policy, none, category.category_id);
    assert.ok(resolution);
    const staged = new Set(["portfolio"] as const);
    const peripheral = buildModulePlan(policy, resolution, modules, staged, "oral_peripheral");
    const cns = buildModulePlan(policy, resolution, modules, staged, "oral_cns");
    const entryOf = (plan: typeof cns) => plan.modules.find((entry) => entry.module_id === "cns_penetration");
    assert.equal(entryOf(peripheral)?.bucket, "optional", category.category_id);
    assert.equal(entryOf(peripheral)?.outcome, "planned", category.category_id);
    assert.equal(entryOf(cns)?.bucket, "required", category.category_id);
    assert.equal(entryOf(cns)?.outcome, "planned");
    assert.match(entryOf(cns)?.detail ?? "", /required by the target product profile oral_cns/);
    assert.equal(cns.modules.length, peripheral.modules.length, "the module is listed once");
    assert.equal(countPlan(cns).required, countPlan(peripheral).required + 1);
  }
});

test("a staged structure plans physics_audit, quantum_target_audit, physics_binding, interaction_stability, qmmm_analysis and advanced_comp_chem_summary in every structure category; without one they are not run (issue 40 items 1–3)", () => {
  const policy = loadPolicy();
  const modules = [...IMPLEMENTED_MODULES, ...STRUCTURE_MODULES];
  const ids = [
    "physics_audit",
    "quantum_target_audit",
    "physics_binding",
    "interaction_stability",
    "qmmm_analysis",
    "advanced_comp_chem_summary",
  ];
  for (const id of [CATEGORY.structureNoMd, CATEGORY.mdEnabled, CATEGORY.physicsAudit]) {
    const category = resolveCategory(policy, none, id);
    assert.ok(category);
    const plan = buildModulePlan(policy, category, modules, new Set(["portfolio", "structures"] as const));
    for (const moduleId of ids)
      assert.equal(
        plan.modules.find((entry) => entry.module_id === moduleId)?.outcome,
        "planned",
        `${id}: ${moduleId}`,
      );
  }
  const ligandOnly = resolveCategory(policy, none, CATEGORY.ligandOnly);
  assert.ok(ligandOnly);
  const plan = buildModulePlan(policy, ligandOnly, modules, new Set(["portfolio"] as const));
  const quantum = plan.modules.find((entry) => entry.module_id === "quantum_target_audit");
  assert.equal(quantum?.reason, "missing_input");
  assert.equal(quantum?.detail, "not staged: structures");
});
