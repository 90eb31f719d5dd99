import assert from "node:assert/strict";
import { test } from "node:test";
import { IMPLEMENTED_MODULES, UNAVAILABLE_MODULES } from "@svc/science/modules";
import { STRUCTURE_MODULES } from "@svc/science/structure-modules";
import { loadPolicy } from "./policy.ts";

const implemented = new Set([...IMPLEMENTED_MODULES, ...STRUCTURE_MODULES].map((module) => module.id));

test("every module id of the category policy is implemented (science or structure) or has a not_available reason", () => {
  const missing = Object.keys(loadPolicy().modules).filter(
    (id) => !implemented.has(id) && UNAVAILABLE_MODULES[id] === undefined,
  );
  assert.deepEqual(missing, [], "policy modules with neither an implementation nor a reason");
});

test("no implemented module keeps a not_available reason, and every reason is for a policy module", () => {
  const policy = loadPolicy();
  for (const id of Object.keys(UNAVAILABLE_MODULES)) {
    assert.ok(!implemented.has(id), `${id} is implemented but still has a not_available reason`);
    assert.ok(id in policy.modules, `${id} has a reason but is no module of the policy`);
  }
});
