import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { defaultRunId } from "@svc/core";
import { FLAG_ENV, resolveRunConfig, resolveSealConfig } from "./config.ts";
import { createTokenSource } from "./main.ts";
import { RunnerError } from "./runner-error.ts";

test("defaults follow the runner contract and the run id is run_<UTC timestamp>", () => {
  const config = resolveRunConfig(
    { projectId: "p1", entitlementUrl: "http://ent:8080" },
    {},
    { now: new Date("2026-03-04T05:06:07.891Z"), cpuLimit: 3 },
  );
  assert.equal(config.runId, "run_20260304T050607Z");
  assert.equal(config.inputRoot, "/data/input");
  assert.equal(config.outputRoot, "/data/output");
  assert.equal(config.mode, "standard");
  assert.equal(config.authMode, "cloud");
  assert.equal(config.audience, "http://ent:8080");
  assert.equal(config.timeoutSec, 20);
  assert.equal(config.metricName, "standard_audit_run");
  assert.equal(config.maxInvalidFraction, 0.5);
  assert.equal(config.maxHeavyAtoms, 300);
  assert.equal(config.workers, 3, "workers default to the container CPU limit");
  assert.ok(Object.isFrozen(config));
  assert.equal(defaultRunId(new Date("2026-01-01T00:00:00Z")), "run_20260101T000000Z");
});

test("the docking cap is a setting: 100 by default, SVC_DOCKING_MAX_COMPOUNDS or the flag from 0 to 1000, anything else refused", () => {
  const base = { projectId: "p1" };
  assert.equal(resolveRunConfig(base, {}, { entitled: false }).dockingMaxCompounds, 100);
  assert.equal(
    resolveRunConfig(base, { SVC_DOCKING_MAX_COMPOUNDS: "250" }, { entitled: false }).dockingMaxCompounds,
    250,
  );
  assert.equal(
    resolveRunConfig(
      { ...base, dockingMaxCompounds: "0" },
      { SVC_DOCKING_MAX_COMPOUNDS: "250" },
      { entitled: false },
    ).dockingMaxCompounds,
    0,
  );
  for (const bad of ["1001", "-1", "2.5", "many"])
    assert.throws(
      () => resolveRunConfig(base, { SVC_DOCKING_MAX_COMPOUNDS: bad }, { entitled: false }),
      new RegExp(
        `--docking-max-compounds / SVC_DOCKING_MAX_COMPOUNDS "${bad}": must be an integer from 0 to 1000`,
      ),
    );
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

test("validation without a charge needs no entitlement url; the limits are checked like any flag", () => {
  const config = resolveRunConfig({ projectId: "p1" }, { SVC_MAX_HEAVY_ATOMS: "1000" }, { entitled: false });
  assert.equal(config.maxHeavyAtoms, 1000);
  assert.throws(
    () =>
      resolveRunConfig(
        { projectId: "p1", maxInvalidFraction: "1.5", workers: "0", moleculeTimeoutSec: "x" },
        {},
        { entitled: false },
      ),
    (error: unknown) => {
      assert.ok(error instanceof RunnerError);
      assert.match(
        error.message,
        /--max-invalid-fraction \/ SVC_MAX_INVALID_FRACTION "1.5": must be a number from 0 to 1/,
      );
      assert.match(error.message, /--workers \/ SVC_WORKERS "0"/);
      assert.match(error.message, /--molecule-timeout-sec/);
      assert.doesNotMatch(error.message, /--entitlement-url/);
      return true;
    },
  );
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

test("svc-runner seal validates with the run's rules: the same timeout limit and every problem together", () => {
  const env = { SVC_ENTITLEMENT_URL: "http://entitlement", SVC_PROJECT_ID: "p" };
  const asRun = () => resolveRunConfig({ timeoutSec: "4000" }, env);
  const asSeal = () => resolveSealConfig({ timeoutSec: "4000" }, env);
  const message = (fn: () => unknown) => {
    try {
      fn();
    } catch (error) {
      return (error as RunnerError).message;
    }
    return "";
  };
  assert.match(message(asRun), /--timeout-sec "4000": must be a number of seconds between 0 and 3600/);
  assert.match(message(asSeal), /--timeout-sec "4000": must be a number of seconds between 0 and 3600/);
  assert.match(message(asSeal), /--run-dir is required/);
  const config = resolveSealConfig({ runDir: "/out/run-1", authMode: "k8s" }, env);
  assert.equal(config.audience, "http://entitlement");
  assert.equal(config.k8sTokenFile, "/var/run/secrets/svc/token");
});

test("the token source is built from the validated config, not from the raw environment again", async () => {
  const config = resolveRunConfig(
    { authMode: "dev" },
    { SVC_PROJECT_ID: "p", SVC_ENTITLEMENT_URL: "http://e", SVC_DEV_TOKEN: "  dev-token-from-config  " },
  );
  // The validated value is trimmed; a source reading process.env again would see nothing here.
  assert.equal(await createTokenSource(config).getToken("http://e"), "dev-token-from-config");
});
