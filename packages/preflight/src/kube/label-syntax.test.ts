import assert from "node:assert/strict";
import { test } from "node:test";
import { findLabelSelectorError, isLabelKey } from "./label-syntax.ts";

test("label selectors of every documented form are accepted", () => {
  for (const selector of [
    "app=x",
    "app==x",
    "app!=x",
    "app",
    "!app",
    "tier in (a,b)",
    "tier notin (a)",
    "app.kubernetes.io/component=smoke,svc.module=computational",
    "batch.kubernetes.io/job-name=svc-run-1, env in (prod, dev)",
  ])
    assert.equal(findLabelSelectorError(selector), undefined, selector);
});

test("malformed label selectors are refused with a reason", () => {
  for (const selector of [
    "",
    "a=b,",
    "=x",
    "a=b c",
    "a in (x",
    "a in ((x))",
    "a=$(id)",
    "a b",
    "-a=x",
    "a=x;rm",
  ])
    assert.notEqual(findLabelSelectorError(selector), undefined, selector);
});

test("label keys take an optional DNS subdomain prefix", () => {
  assert.equal(isLabelKey("batch.kubernetes.io/job-name"), true);
  assert.equal(isLabelKey("Bad_Prefix/x"), false);
  assert.equal(isLabelKey("a/b/c"), false);
  assert.equal(isLabelKey("x".repeat(64)), false);
});
