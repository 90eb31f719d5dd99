import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { type KubeApiDouble, makeTempDir, startKubeApiDouble, writeKubeconfig } from "@svc/testing";
import { PreflightError } from "../errors.ts";
import { createClientNodeGateway } from "./client-node-gateway.ts";
import type { JobManifest, KubeGateway } from "./kube-gateway.ts";

function minimalJob(name: string, namespace = "svc"): JobManifest {
  return {
    apiVersion: "batch/v1",
    kind: "Job",
    metadata: { name, namespace, labels: { "app.kubernetes.io/component": "smoke" } },
    spec: {
      backoffLimit: 0,
      ttlSecondsAfterFinished: 60,
      template: {
        metadata: { labels: { "app.kubernetes.io/component": "smoke" } },
        spec: {
          restartPolicy: "Never",
          securityContext: { runAsNonRoot: true },
          containers: [{ name: "runner", image: "example/runner:1", command: ["svc-runner", "--help"] }],
        },
      },
    },
  };
}

describe("client-node gateway against the Kubernetes API double", () => {
  let double: KubeApiDouble;
  let gateway: KubeGateway;
  before(async () => {
    double = await startKubeApiDouble({ token: "double-token" });
    const path = await writeKubeconfig({
      server: double.url,
      token: "double-token",
      contexts: ["main", "other"],
      dir: await makeTempDir("svc-kubeconfig-", { after }),
    });
    gateway = createClientNodeGateway({ mode: "kubeconfig", path });
  });
  after(() => double.close());

  test("lists the kubeconfig's contexts and is not in-cluster", () => {
    assert.deepEqual(gateway.listContexts(), ["main", "other"]);
    assert.equal(gateway.inCluster, false);
  });

  test("creates a Job with the kubeconfig's bearer token and reads it back by label", async () => {
    const created = await gateway.createJob(minimalJob("smoke-a"));
    assert.equal(created.name, "smoke-a");
    const post = double.requests.find((request) => request.method === "POST");
    assert.equal(post?.authorization, "Bearer double-token");
    assert.equal(post?.path, "/apis/batch/v1/namespaces/svc/jobs");
    const listed = await gateway.listJobs("svc", "app.kubernetes.io/component=smoke");
    assert.deepEqual(
      listed.map((job) => job.name),
      ["smoke-a"],
    );
  });

  test("maps 409 AlreadyExists to KUBE_CONFLICT", async () => {
    await assert.rejects(gateway.createJob(minimalJob("smoke-a")), (error: unknown) => {
      assert.ok(error instanceof PreflightError);
      assert.equal(error.code, "KUBE_CONFLICT");
      assert.match(error.message, /already exists/);
      return true;
    });
  });

  test("maps 422 Invalid to KUBE_INVALID with the API's message", async () => {
    await assert.rejects(gateway.createJob(minimalJob("Not_A_Name")), (error: unknown) => {
      assert.ok(error instanceof PreflightError);
      assert.equal(error.code, "KUBE_INVALID");
      assert.match(error.message, /is invalid/);
      return true;
    });
  });

  test("maps 403 Forbidden to KUBE_FORBIDDEN", async () => {
    double.forbidNamespace("locked");
    await assert.rejects(gateway.listPods("locked", undefined), { code: "KUBE_FORBIDDEN" });
  });

  test("maps 404 to KUBE_NOT_FOUND and deletes with Background propagation", async () => {
    await assert.rejects(gateway.deleteJob("svc", "missing"), { code: "KUBE_NOT_FOUND" });
    double.putPod({
      metadata: {
        name: "smoke-a-x1",
        namespace: "svc",
        labels: { "batch.kubernetes.io/job-name": "smoke-a" },
      },
      spec: { containers: [{ name: "runner", image: "example/runner:1" }] },
      status: { phase: "Succeeded" },
    });
    await gateway.deleteJob("svc", "smoke-a");
    const del = double.requests.findLast((request) => request.method === "DELETE");
    const policy =
      del?.query.propagationPolicy ??
      (del?.body as { propagationPolicy?: string } | undefined)?.propagationPolicy;
    assert.equal(policy, "Background");
    assert.equal(double.getJob("svc", "smoke-a"), undefined);
    assert.deepEqual(double.listPods("svc"), []);
  });

  test("lists pods through another kubeconfig context with a label selector", async () => {
    double.putPod({
      metadata: { name: "p1", namespace: "svc", labels: { app: "x" } },
      spec: { containers: [{ name: "c", image: "img:1" }] },
      status: {
        phase: "Running",
        startTime: "2026-01-01T00:00:00Z",
        containerStatuses: [
          {
            name: "c",
            image: "img:1",
            ready: true,
            restartCount: 2,
            state: { running: { startedAt: "2026-01-01T00:00:01Z" } },
          },
        ],
      },
    });
    const pods = await gateway.listPods("svc", "app=x", "other");
    assert.equal(pods.length, 1);
    assert.equal(pods[0]?.phase, "Running");
    assert.deepEqual(pods[0]?.containers[0], {
      name: "c",
      image: "img:1",
      ready: true,
      restarts: 2,
      state: { kind: "running", since: "2026-01-01T00:00:01.000Z" },
    });
    assert.equal(double.requests.at(-1)?.query.labelSelector, "app=x");
  });

  test("reports an unreachable API server as KUBE_UNAVAILABLE", async (t) => {
    const path = await writeKubeconfig({
      server: "http://127.0.0.1:1",
      dir: await makeTempDir("svc-kubeconfig-", t),
    });
    const offline = createClientNodeGateway({ mode: "kubeconfig", path });
    await assert.rejects(offline.listJobs("svc", "a=b"), { code: "KUBE_UNAVAILABLE" });
  });
});
