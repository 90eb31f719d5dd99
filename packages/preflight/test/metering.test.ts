import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { assertValidJobManifest } from "@svc/testing";
import { ConfigError, loadConfig } from "../src/config.ts";
import type { JobManifest } from "../src/kube/kube-gateway.ts";
import { jsonPost, startServiceHarness } from "./service-harness.ts";

const AGENT = `gcr.io/cloud-marketplace-tools/metering/ubbagent@sha256:${"ab".repeat(32)}`;

describe("metering of launched runs (chart billing.enabled)", () => {
  test("a launched Job runs the metering agent as a native sidecar and the runner reports to it", async (t) => {
    const harness = await startServiceHarness({
      env: {
        SVC_METERING_AGENT_IMAGE: AGENT,
        SVC_METERING_REPORTING_SECRET: "svc-reporting-secret",
        SVC_METERING_CONFIG_MAP: "audit-ubbagent",
      },
    });
    t.after(() => harness.close());
    const response = await harness.call(
      "/api/pipeline/run",
      jsonPost({ projectId: "p", namespace: "svc", runId: "run_m" }),
    );
    assert.equal(response.status, 201, await response.clone().text());
    const job = harness.double.requests.find((r) => r.method === "POST" && r.status === 201)
      ?.body as JobManifest;
    assertValidJobManifest(job);
    const pod = job.spec.template.spec;
    const sidecar = pod.initContainers?.[0];
    assert.equal(sidecar?.name, "ubbagent");
    assert.equal(sidecar?.image, AGENT);
    assert.equal(sidecar?.restartPolicy, "Always");
    assert.deepEqual(
      sidecar?.env.find((e) => e.name === "AGENT_CONSUMER_ID"),
      {
        name: "AGENT_CONSUMER_ID",
        valueFrom: { secretKeyRef: { name: "svc-reporting-secret", key: "consumer-id" } },
      },
    );
    const runnerEnv = Object.fromEntries((pod.containers[0]?.env ?? []).map((e) => [e.name, e.value]));
    assert.equal(runnerEnv.SVC_METERING_URL, "http://localhost:4567");
    assert.ok(pod.volumes?.some((v) => "configMap" in v && v.configMap.name === "audit-ubbagent"));
  });

  test("without the agent image launched Jobs run no sidecar and report nowhere", async (t) => {
    const harness = await startServiceHarness();
    t.after(() => harness.close());
    const response = await harness.call(
      "/api/pipeline/run",
      jsonPost({ projectId: "p", namespace: "svc", runId: "run_n" }),
    );
    assert.equal(response.status, 201);
    const job = harness.double.requests.find((r) => r.method === "POST" && r.status === 201)
      ?.body as JobManifest;
    assert.equal(job.spec.template.spec.initContainers, undefined);
    assert.ok(!(job.spec.template.spec.containers[0]?.env ?? []).some((e) => e.name === "SVC_METERING_URL"));
  });

  test("an unpinned agent image, or one without its secret and config map, is refused at start", () => {
    const probe = { fileExists: () => false, readTextFile: () => undefined, homeDir: undefined };
    assert.throws(
      () =>
        loadConfig(
          { SVC_AUTH_DISABLED: "true", SVC_METERING_AGENT_IMAGE: "gcr.io/x/ubbagent:latest" },
          probe,
        ),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.deepEqual(error.problems, [
          'SVC_METERING_AGENT_IMAGE must be pinned by digest or a version tag other than latest (got "gcr.io/x/ubbagent:latest")',
          "SVC_METERING_REPORTING_SECRET must be a DNS-1123 name when SVC_METERING_AGENT_IMAGE is set (got nothing)",
          "SVC_METERING_CONFIG_MAP must be a DNS-1123 name when SVC_METERING_AGENT_IMAGE is set (got nothing)",
        ]);
        return true;
      },
    );
    assert.throws(
      () => loadConfig({ SVC_AUTH_DISABLED: "true", SVC_METERING_AGENT_IMAGE: "gcr.io/x/ubbagent" }, probe),
      /must be pinned by digest or a version tag/,
    );
  });
});
