import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { defaultRunId, ID_RULE } from "@svc/core";
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

test("the docking cap is a per-shard setting: 500 by default (20 pods dock 10,000 compounds), SVC_DOCKING_MAX_COMPOUNDS or the flag from 0 to 1000, anything else refused", () => {
  const base = { projectId: "p1" };
  assert.equal(resolveRunConfig(base, {}, { entitled: false }).dockingMaxCompounds, 500);
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
        `--docking-max-compounds / SVC_DOCKING_MAX_COMPOUNDS must be an integer from 0 to 1000 \\(got "${bad}"\\)`,
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
      assert.equal(
        error.message,
        "invalid svc-runner configuration:\n" +
          [
            '--max-invalid-fraction / SVC_MAX_INVALID_FRACTION must be a number from 0 to 1 (got "1.5")',
            '--molecule-timeout-sec / SVC_MOLECULE_TIMEOUT_SEC must be a number from 0.1 to 3600 (got "x")',
            '--workers / SVC_WORKERS must be an integer from 1 to 256 (got "0")',
          ]
            .map((problem) => `  - ${problem}`)
            .join("\n"),
      );
      return true;
    },
  );
});

test("every problem is reported together", () => {
  assert.throws(
    () => resolveRunConfig({ mode: "fast", runId: "../x", timeoutSec: "-1", authMode: "magic" }, {}),
    (error: unknown) => {
      assert.ok(error instanceof RunnerError && error.code === "CONFIG_INVALID");
      assert.deepEqual(error.message.split("\n  - ").slice(1), [
        `--project-id / SVC_PROJECT_ID ${ID_RULE} (got nothing)`,
        `--run-id / SVC_RUN_ID ${ID_RULE} (got "../x")`,
        '--mode / SVC_RUN_MODE must be one of standard, deep (got "fast")',
        "--entitlement-url / SVC_ENTITLEMENT_URL must be an absolute http or https URL for an entitled run (got nothing)",
        '--auth-mode / SVC_ENTITLEMENT_AUTH_MODE must be one of cloud, k8s, dev (got "magic")',
        '--timeout-sec / SVC_ENTITLEMENT_TIMEOUT_SEC must be a number above 0 and at most 3600 (got "-1")',
      ]);
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
  const timeout =
    '--timeout-sec / SVC_ENTITLEMENT_TIMEOUT_SEC must be a number above 0 and at most 3600 (got "4000")';
  assert.equal(message(asRun), `invalid svc-runner configuration:\n  - ${timeout}`);
  assert.equal(
    message(asSeal),
    `invalid svc-runner configuration:\n  - --run-dir must be a run output folder (got nothing)\n  - ${timeout}`,
  );
  const config = resolveSealConfig({ runDir: "/out/run-1", authMode: "k8s" }, env);
  assert.equal(config.audience, "http://entitlement");
  assert.equal(config.k8sTokenFile, "/var/run/secrets/svc/token");
});

test("a flag and its variable are trimmed alike, a blank flag leaves the variable, and the config is frozen all the way down", () => {
  const config = resolveRunConfig(
    { projectId: "  p1 ", workers: " " },
    { SVC_WORKERS: " 4 ", SVC_IMAGE_DIGEST: `  sha256:${"a".repeat(64)}` },
    { entitled: false },
  );
  assert.equal(config.projectId, "p1");
  assert.equal(config.workers, 4);
  assert.equal(config.image.digest, `sha256:${"a".repeat(64)}`);
  assert.ok(Object.isFrozen(config.image));
  assert.ok(Object.isFrozen(config.report));
});

test("the token source is built from the validated config, not from the raw environment again", async () => {
  const config = resolveRunConfig(
    { authMode: "dev" },
    { SVC_PROJECT_ID: "p", SVC_ENTITLEMENT_URL: "http://e", SVC_DEV_TOKEN: "  dev-token-from-config  " },
  );
  // The validated value is trimmed; a source reading process.env again would see nothing here.
  assert.equal(await createTokenSource(config).getToken("http://e"), "dev-token-from-config");
});
