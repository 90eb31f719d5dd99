import assert from "node:assert/strict";
import { test } from "node:test";
import { RUN_STAGES } from "@svc/core";
import { runStages } from "./run-stages.ts";

test("every stage of a run, sharded or not, has the one stage shape and is listed in spec §3 order", () => {
  for (const sharded of [false, true]) {
    const stages = runStages(sharded);
    assert.deepEqual(Object.keys(stages), [...RUN_STAGES]);
    for (const [key, stage] of Object.entries(stages)) {
      assert.equal(stage.name, key, `${key} is named for its place`);
      assert.equal(typeof stage.run, "function");
      assert.equal(stage.run.length, 2, `${key}.run takes (ctx, input)`);
    }
  }
});

test("a sharded run differs only in its validate and charge stages, where its pods meet", () => {
  const single = runStages(false);
  const sharded = runStages(true);
  const differing = RUN_STAGES.filter((name) => single[name] !== sharded[name]);
  assert.deepEqual(differing, ["validate", "charge"]);
});
