import assert from "node:assert/strict";
import { test } from "node:test";
import { adminTokenOf, preflightTokenOf } from "./credential-values.ts";

test("the chart's K8S_API_TOKENS array yields its first token; a plain value is the token", () => {
  assert.equal(preflightTokenOf('[{"token":"first-token"},{"token":"older"}]'), "first-token");
  assert.equal(preflightTokenOf("plain-token-value"), "plain-token-value");
  assert.equal(preflightTokenOf("[not json"), "[not json");
});

test("SVC_ADMIN_TOKENS yields its first (current) token", () => {
  assert.equal(adminTokenOf("current-admin, previous-admin"), "current-admin");
  assert.equal(adminTokenOf("only-one"), "only-one");
});
