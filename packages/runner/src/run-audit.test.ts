import assert from "node:assert/strict";
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { parseRunStatus, RUN_STAGES, type RunStage, runStatusPath } from "@svc/core";
import { minimalProject } from "../test/support/minimal-project.ts";
import { resolveRunConfig } from "./config.ts";
import type { EntitlementClient } from "./lifecycle/entitlement-client.ts";
import { createLogger } from "./log.ts";
import { runAudit } from "./run-audit.ts";
import { RunnerError } from "./runner-error.ts";
import { type RunStages, runStages } from "./stages/run-stages.ts";
import type { Stage } from "./stages/stage.ts";

// runAudit with stages we own: each records that it ran and what the status record said then, and
// returns what the next stage needs of it (the real stages are covered by test/*.e2e.test.ts).

async function project(t: { after: (fn: () => Promise<void>) => void }) {
  const { inputRoot, outputRoot } = await minimalProject(t, "svc-run-audit-");
  return { inputRoot, outputRoot };
}

function configOf(
  roots: { inputRoot: string; outputRoot: string },
  shards: { shards: number; index: number },
) {
  return resolveRunConfig(
    {
      projectId: "demo",
      runId: "run_1",
      ...roots,
      entitlementUrl: "http://127.0.0.1:9",
      authMode: "dev",
      shards: String(shards.shards),
      shardIndex: String(shards.index),
    },
    {},
  );
}

interface Seen {
  readonly stage: RunStage;
  readonly recorded: RunStage | null;
}

/**
 * The run's seven stages as fakes with the real stages' counts; `during` runs inside the named
 * stage (a signal, a refusal).
 */
function fakeStages(
  outputRoot: string,
  seen: Seen[],
  options: { finishesRun?: boolean; during?: Partial<Record<RunStage, () => void>> } = {},
): RunStages {
  const outputs: Record<RunStage, unknown> = {
    plan: { category: { category_id: "CAT" } },
    validate: { summary: { rows: 1, ok: 1, invalid: 0, unassessed: 0 }, rdkitVersion: "x" },
    charge: { charged: {}, finishesRun: options.finishesRun ?? true },
    structure: { failures: new Map(), files: [], toolVersions: null },
    analyse: { result: { compounds: 1 }, counts: { executed: 2, failed: 0 } },
    write: undefined,
    seal: { exitCode: 0, seal: { status: "sealed", sealId: "seal-1" }, reason: null, outputs: [] },
  };
  const real = runStages(false) as unknown as Record<RunStage, Stage<unknown, unknown>>;
  const fake = (name: RunStage): Stage<unknown, unknown> => ({
    name,
    // the real stage's counts, so the record's counts come from the outputs as in a real run
    ...(real[name].counts === undefined ? {} : { counts: real[name].counts }),
    async run() {
      const path = runStatusPath(outputRoot, "run_1");
      const record = await readFile(path, "utf8").then(
        (text) => parseRunStatus(JSON.parse(text))?.stage ?? null,
        () => null,
      );
      seen.push({ stage: name, recorded: record });
      options.during?.[name]?.();
      return outputs[name];
    },
  });
  return Object.fromEntries(RUN_STAGES.map((name) => [name, fake(name)])) as unknown as RunStages;
}

const entitlement = {} as Pick<EntitlementClient, "check" | "consume" | "runStart" | "runComplete">;
const log = createLogger("json", { write: () => {} });

/** runAudit of a one-row project with the fake stages; what they saw, and the run's promise. */
async function audit(
  t: { after: (fn: () => Promise<void>) => void },
  shards: { shards: number; index: number },
  options: Parameters<typeof fakeStages>[2] & { interruption?: { signal: NodeJS.Signals | null } } = {},
) {
  const roots = await project(t);
  const seen: Seen[] = [];
  const run = runAudit({
    config: configOf(roots, shards),
    log,
    entitlement,
    ...(options.interruption === undefined ? {} : { interruption: options.interruption }),
    stages: fakeStages(roots.outputRoot, seen, options),
  });
  const record = async () =>
    parseRunStatus(JSON.parse(await readFile(runStatusPath(roots.outputRoot, "run_1"), "utf8")));
  return { roots, seen, run, record };
}

test("runAudit enters every stage once, in spec §3 order, each recorded in the status record before it runs", async (t) => {
  const { seen, run, record } = await audit(t, { shards: 1, index: 0 });
  const outcome = await run;
  assert.deepEqual(
    seen.map((entry) => entry.stage),
    [...RUN_STAGES],
  );
  for (const entry of seen) assert.equal(entry.recorded, entry.stage);
  assert.equal(outcome.sealStatus, "sealed");
  const recorded = await record();
  assert.equal(recorded?.state, "succeeded");
  assert.equal(recorded?.counts.rows, 1, "the validate stage's counts");
  assert.equal(recorded?.counts.modules_executed, 2, "the analyse stage's counts");
  await assert.rejects(stat(join(outcome.runDir, ".scratch")), { code: "ENOENT" }, "scratch removed");
});

test("a sharded run's pod other than index 0 stops after its structure stage (its slice's docking): shard done, no record", async (t) => {
  const { seen, run } = await audit(t, { shards: 2, index: 1 }, { finishesRun: false });
  const outcome = await run;
  assert.equal(outcome.sealStatus, "shard_done");
  assert.deepEqual(
    seen.map((entry) => entry.stage),
    ["plan", "validate", "charge", "structure"],
  );
  assert.ok(seen.every((entry) => entry.recorded === null));
  await assert.rejects(stat(join(outcome.runDir, ".scratch-1")), { code: "ENOENT" }, "scratch removed");
});

test("a signal during a charged run stops it at the next stage boundary: summary and record say interrupted", async (t) => {
  const interruption: { signal: NodeJS.Signals | null } = { signal: null };
  const stop = () => {
    interruption.signal = "SIGTERM";
  };
  const { roots, run, record } = await audit(
    t,
    { shards: 1, index: 0 },
    { interruption, during: { structure: stop } },
  );
  await assert.rejects(
    run,
    (error) =>
      error instanceof RunnerError && error.message === "SIGTERM received during the structure stage",
  );
  const summary = JSON.parse(
    await readFile(join(roots.outputRoot, "run_1", "results", "summary.json"), "utf8"),
  );
  assert.equal(summary.status, "interrupted");
  assert.equal(summary.stage, "analyse");
  const recorded = await record();
  assert.equal(recorded?.state, "interrupted");
  assert.equal(recorded?.exit_code, 75);
});

test("every pod of a sharded run refused by its plan removes the run folder it shares once it is empty, whichever pod comes last", async (t) => {
  const error = new RunnerError("CATEGORY_UNKNOWN", "no such category");
  const refuse = () => {
    throw error;
  };
  // index 1 after index 0 has removed the folder: it creates it again, and must not leave it
  const { roots, run } = await audit(t, { shards: 2, index: 1 }, { during: { plan: refuse } });
  await assert.rejects(run, (thrown) => thrown === error);
  await assert.rejects(stat(join(roots.outputRoot, "run_1")), { code: "ENOENT" });
});

const refusals = [
  { stage: "plan", error: new RunnerError("CATEGORY_UNKNOWN", "no such category") },
  { stage: "validate", error: new RunnerError("PORTFOLIO_INVALID", "no row parses") },
] as const;

for (const shards of [1, 2]) {
  for (const { stage, error } of refusals) {
    test(`a run of ${shards} pod(s) refused in its ${stage} stage, before its charge, leaves no run folder; its record says failed`, async (t) => {
      const refuse = () => {
        throw error;
      };
      const { roots, run, record } = await audit(t, { shards, index: 0 }, { during: { [stage]: refuse } });
      await assert.rejects(run, (thrown) => thrown === error);
      await assert.rejects(stat(join(roots.outputRoot, "run_1")), { code: "ENOENT" });
      const recorded = await record();
      assert.equal(recorded?.state, "failed");
      assert.equal(recorded?.stage, stage);
      assert.equal(recorded?.exit_code, 2);
    });
  }
}
