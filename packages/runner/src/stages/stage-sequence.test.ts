import assert from "node:assert/strict";
import { test } from "node:test";
import type { RunStage, RunStatusCounts } from "@svc/core";
import type { Interruption } from "../interruption.ts";
import { RunnerError } from "../runner-error.ts";
import type { Stage, StageContext } from "./stage.ts";
import { StageSequence } from "./stage-sequence.ts";

/** A stage that records when it runs and returns its input; counts what it is told to. */
function stage(name: RunStage, log: string[], counts?: Partial<RunStatusCounts>): Stage<number, number> {
  return {
    name,
    run: async (_ctx, input) => {
      log.push(`run ${name}`);
      return input;
    },
    ...(counts === undefined ? {} : { counts: () => counts }),
  };
}

function sequenceOf(interruption: Interruption = { signal: null }) {
  const log: string[] = [];
  const ctx = { interruption } as StageContext;
  const sequence = new StageSequence(ctx, async (name, counts) => {
    log.push(`enter ${name} ${JSON.stringify(counts)}`);
  });
  return { sequence, log };
}

test("the sequence enters each stage before running it, with the counts the previous stage produced", async () => {
  const { sequence, log } = sequenceOf();
  await sequence.run(stage("plan", log), 1);
  await sequence.run(stage("validate", log, { rows: 3 }), 1);
  await sequence.run(stage("charge", log), 1);
  assert.deepEqual(log, [
    "enter plan {}",
    "run plan",
    "enter validate {}",
    "run validate",
    'enter charge {"rows":3}',
    "run charge",
  ]);
  assert.equal(sequence.stage, "charge");
});

test("a stage out of spec §3 order is refused before it is entered", async () => {
  const { sequence, log } = sequenceOf();
  await assert.rejects(
    sequence.run(stage("validate", log), 1),
    /validate entered out of order: plan comes next/,
  );
  await sequence.run(stage("plan", log), 1);
  await assert.rejects(sequence.run(stage("plan", log), 1), /out of order: validate comes next/);
  await assert.rejects(sequence.run(stage("analyse", log), 1), /out of order: validate comes next/);
  assert.deepEqual(log, ["enter plan {}", "run plan"]);
});

test("a signal stops the run on entering structure or analyse, naming the stage it was in; write and seal go on", async () => {
  const names: RunStage[] = ["plan", "validate", "charge", "structure", "analyse", "write", "seal"];
  for (const stoppedAt of ["structure", "analyse"] as const) {
    const interruption: { signal: NodeJS.Signals | null } = { signal: null };
    const { sequence, log } = sequenceOf(interruption);
    for (const name of names.slice(0, names.indexOf(stoppedAt))) await sequence.run(stage(name, log), 1);
    interruption.signal = "SIGTERM";
    const previous = names[names.indexOf(stoppedAt) - 1];
    await assert.rejects(
      sequence.run(stage(stoppedAt, log), 1),
      (error) =>
        error instanceof RunnerError &&
        error.code === "INTERRUPTED" &&
        error.message === `SIGTERM received during the ${previous} stage`,
    );
    assert.equal(sequence.stage, stoppedAt, "an interrupted run's summary names the stage it stopped at");
    assert.ok(!log.includes(`enter ${stoppedAt} {}`));
  }
  const interruption = { signal: null as NodeJS.Signals | null };
  const { sequence, log } = sequenceOf(interruption);
  for (const name of names.slice(0, 5)) await sequence.run(stage(name, log), 1);
  interruption.signal = "SIGTERM";
  await sequence.run(stage("write", log), 1);
  await sequence.run(stage("seal", log), 1);
  assert.deepEqual(log.slice(-2), ["enter seal {}", "run seal"]);
});
