import assert from "node:assert/strict";
import { test } from "node:test";
import { defaultRunId } from "@svc/core";
import { pipelineJobName, smokeJobName } from "./job-names.ts";
import { DNS1123_SUBDOMAIN } from "./label-syntax.ts";

test("a run id always maps to the same valid Job name; distinct run ids never collide", () => {
  const names = ["run_A", "run-a", "run.a", "RUN_A", "x".repeat(63), "run_20260101T000000Z"].map(
    pipelineJobName,
  );
  for (const name of names) {
    assert.ok(name.length <= 63, name);
    assert.match(name, DNS1123_SUBDOMAIN);
  }
  assert.equal(new Set(names).size, names.length);
  assert.equal(pipelineJobName("run_A"), pipelineJobName("run_A"));
});

test("smoke Job names are valid and unique; the default run id is run_<UTC yyyymmddThhmmssZ>", () => {
  const now = new Date("2026-03-04T05:06:07.890Z");
  const a = smokeJobName("computational", now);
  assert.match(a, /^svc-smoke-computational-20260304050607-[0-9a-f]{5}$/);
  assert.notEqual(a, smokeJobName("computational", now));
  assert.equal(defaultRunId(now), "run_20260304T050607Z");
});
