import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import type { RunStage } from "@svc/core";
import { minimalProject } from "../test/support/minimal-project.ts";
import { mainValidate } from "./main.ts";
import { EXIT } from "./runner-error.ts";
import type { PlannedRun } from "./stages/plan-stage.ts";
import { PRE_CHARGE_STAGES, type PreChargeStages, runStages } from "./stages/run-stages.ts";
import type { PreChargeContext } from "./stages/stage.ts";
import type { RowValidation } from "./stages/validate-stage.ts";

// `svc-runner validate` runs the run's own plan and validate stages through the StageSequence
// (issue 41 item 2). These tests hand mainValidate stages of their own, so a private path that
// plans and validates without the stages it is given, or without the sequence, fails them.

async function project(t: { after: (fn: () => Promise<void>) => void }) {
  const { root, inputRoot } = await minimalProject(t, "svc-validate-inputs-");
  return { inputRoot, out: join(root, "validation.json") };
}

const PLANNED = {
  category: { category_id: "CAT_FROM_THE_PLAN_STAGE" },
  plan: { modules: [{ module_id: "m1", bucket: "required", outcome: "planned", reason: null }] },
} as unknown as PlannedRun;
const VALIDATION: RowValidation = {
  summary: {
    rows: 7,
    ok: 6,
    invalid: 1,
    unassessed: 0,
    invalid_fraction: 0.1429,
    first_invalid: [{ line: 3, candidate_id: "x", reason: "does not parse" }],
    first_unassessed: [],
  },
  rdkitVersion: "test",
};

interface Entered {
  readonly stage: RunStage;
  readonly ctx: PreChargeContext;
}

/** Plan and validate stages that record the context they were given and return fixed outputs. */
function recordingStages(entered: Entered[], names: { plan: RunStage; validate: RunStage }): PreChargeStages {
  return {
    plan: {
      name: names.plan,
      run: async (ctx) => {
        entered.push({ stage: names.plan, ctx });
        return PLANNED;
      },
    },
    validate: {
      name: names.validate,
      run: async (ctx) => {
        entered.push({ stage: names.validate, ctx });
        return VALIDATION;
      },
    },
  };
}

async function validate(t: Parameters<typeof project>[0], stages: PreChargeStages) {
  const { inputRoot, out } = await project(t);
  let printed = "";
  const code = await mainValidate(
    { projectId: "demo", inputRoot, validationOut: out, logFormat: "json" },
    {},
    {
      stdout: (text) => {
        printed += text;
      },
      stages,
    },
  );
  return { code, printed, out };
}

test("svc-runner validate prints what the plan and validate stages it is given returned, entering plan then validate and nothing after", async (t) => {
  const entered: Entered[] = [];
  const { code, printed, out } = await validate(
    t,
    recordingStages(entered, { plan: "plan", validate: "validate" }),
  );
  assert.equal(code, EXIT.success);
  assert.deepEqual(
    entered.map((entry) => entry.stage),
    ["plan", "validate"],
  );
  const result = JSON.parse(printed);
  assert.equal(result.category_id, "CAT_FROM_THE_PLAN_STAGE");
  assert.deepEqual(result.validation, VALIDATION.summary);
  assert.equal(result.charged, false);
  // The stages see a pre-charge context: the report where --validation-out says, no prepared
  // rows kept, and no run folder or entitlement client to charge with.
  for (const { ctx } of entered) {
    assert.deepEqual(ctx.validationFiles, { report: out, preparedRows: null });
    assert.equal("entitlement" in ctx, false);
    assert.equal("runDir" in ctx, false);
  }
});

test("svc-runner validate enters its stages through the stage sequence: a stage out of spec §3 order is refused before it runs", async (t) => {
  const entered: Entered[] = [];
  // The plan stage's place given a stage named validate: the sequence expects plan first.
  const { code, printed } = await validate(
    t,
    recordingStages(entered, { plan: "validate", validate: "plan" }),
  );
  assert.equal(code, EXIT.internal);
  assert.deepEqual(entered, [], "no stage ran");
  assert.equal(printed, "");
});

test("the stages svc-runner validate runs by default are the one-pod run's own plan and validate stage objects", () => {
  const run = runStages(false);
  assert.equal(PRE_CHARGE_STAGES.plan, run.plan);
  assert.equal(PRE_CHARGE_STAGES.validate, run.validate);
});
