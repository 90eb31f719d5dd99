import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { defaultRunId, FLAG_ENV, resolveRunConfig } from "./config.ts";
import { RunnerError } from "./runner-error.ts";

test("defaults follow the runner contract and the run id is run_<UTC timestamp>", () => {
  const config = resolveRunConfig(
    { projectId: "p1", entitlementUrl: "http://ent:8080" },
    {},
    new Date("2026-03-04T05:06:07.891Z"),
  );
  assert.equal(config.runId, "run_20260304T050607Z");
  assert.equal(config.inputRoot, "/data/input");
  assert.equal(config.outputRoot, "/data/output");
  assert.equal(config.mode, "standard");
  assert.equal(config.authMode, "cloud");
  assert.equal(config.audience, "http://ent:8080");
  assert.equal(config.timeoutSec, 20);
  assert.equal(config.metricName, "standard_audit_run");
  assert.ok(Object.isFrozen(config));
  assert.equal(defaultRunId(new Date("2026-01-01T00:00:00Z")), "run_20260101T000000Z");
});

test("flags win over SVC_* variables, which win over defaults", () => {
  const env = {
    SVC_PROJECT_ID: "from-env",
    SVC_RUN_MODE: "deep",
    SVC_ENTITLEMENT_URL: "http://e",
    SVC_METRIC_NAME_DEEP: "deep_x",
  };
  const config = resolveRunConfig({ projectId: "from-flag" }, env);
  assert.equal(config.projectId, "from-flag");
  assert.equal(config.mode, "deep");
  assert.equal(config.metricName, "deep_x");
});

test("every problem is reported together", () => {
  assert.throws(
    () => resolveRunConfig({ mode: "fast", runId: "../x", timeoutSec: "-1", authMode: "magic" }, {}),
    (error: unknown) => {
      assert.ok(error instanceof RunnerError && error.code === "CONFIG_INVALID");
      for (const needle of [
        "--project-id",
        "--run-id",
        "--mode",
        "--entitlement-url",
        "--auth-mode",
        "--timeout-sec",
      ]) {
        assert.ok(error.message.includes(needle), needle);
      }
      return true;
    },
  );
});

test("the README's configuration table names every flag with its environment variable", () => {
  const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
  for (const [flag, env] of Object.entries(FLAG_ENV)) {
    const kebab = flag === "module" ? "module" : flag.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    assert.match(readme, new RegExp(`\\| \`--${kebab}\`\\s*\\| \`${env}\`\\s*\\|`), flag);
  }
});
