import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { assertValidJobManifest } from "@svc/testing";
import type { JobManifest } from "../src/kube/kube-gateway.ts";
import { jsonPost, type ServiceHarness, startServiceHarness } from "./service-harness.ts";

interface ErrorBody {
  error: { code: string; message: string; request_id: string };
}

function createdJobs(harness: ServiceHarness): JobManifest[] {
  return harness.double.requests
    .filter((request) => request.method === "POST" && request.status === 201)
    .map((request) => request.body as JobManifest);
}

describe("pipeline launch against the Kubernetes API double", () => {
  let harness: ServiceHarness;
  before(async () => {
    harness = await startServiceHarness({
      env: {
        SVC_GPU_NODE_SELECTOR: "cloud.google.com/gke-accelerator=nvidia-l4",
        SVC_ENTITLEMENT_URL: "https://entitlement.example",
        SVC_ENTITLEMENT_AUTH_MODE: "cloud",
        // The chart's layout: the job release's claim at /data with the default roots.
        SVC_INPUT_ROOT: "/data/input",
        SVC_OUTPUT_ROOT: "/data/output",
        SVC_DATA_CLAIM: "audit-data",
        SVC_CO_LOCATE_WITH: "app.kubernetes.io/name=svc-preflight,app.kubernetes.io/instance=svc-preflight",
      },
    });
  });
  after(() => harness.close());

  test("a sharded launch on this ReadWriteOnce claim is refused with a code naming shards, and no Job", async () => {
    const before = createdJobs(harness).length;
    const response = await harness.call(
      "/api/pipeline/run",
      jsonPost({ projectId: "proj-1", namespace: "svc", runId: "run_sharded_rwo", shards: 2 }),
    );
    assert.equal(response.status, 409);
    const body = (await response.json()) as ErrorBody;
    assert.equal(body.error.code, "SHARDS_NEED_SHARED_STORAGE");
    assert.match(body.error.message, /^shards: 2 pods cannot share the ReadWriteOnce claim audit-data/);
    assert.equal(createdJobs(harness).length, before);
  });

  test("a standard run creates a schema-valid Job with image, command, env, claim, service account and no GPU", async () => {
    const response = await harness.call(
      "/api/pipeline/run",
      jsonPost({ projectId: "proj-1", namespace: "svc", runId: "run_standard_1" }),
    );
    assert.equal(response.status, 201);
    const body = (await response.json()) as { jobName: string; runId: string; gpu: boolean };
    assert.equal(body.runId, "run_standard_1");
    assert.equal(body.gpu, false);
    const job = harness.double.getJob("svc", body.jobName) as unknown as JobManifest;
    assert.ok(job, "the Job exists in the API double");
    assertValidJobManifest(job);
    const pod = job.spec.template.spec;
    const container = pod.containers[0];
    assert.equal(pod.containers.length, 1);
    assert.equal(container?.image, "registry.example/svc/runner:1.0.0");
    assert.deepEqual(container?.command, ["svc-runner"]);
    const env = Object.fromEntries((container?.env ?? []).map((entry) => [entry.name, entry.value]));
    assert.equal(env.SVC_PROJECT_ID, "proj-1");
    assert.equal(env.SVC_RUN_ID, "run_standard_1");
    assert.equal(env.SVC_RUN_MODE, "standard");
    assert.equal(env.SVC_MODULE_ID, "computational");
    assert.equal(env.SVC_INPUT_ROOT, "/data/input");
    assert.equal(env.SVC_OUTPUT_ROOT, "/data/output");
    assert.equal(env.SVC_ENTITLEMENT_URL, "https://entitlement.example");
    assert.equal(env.SVC_ENTITLEMENT_AUTH_MODE, "cloud");
    assert.deepEqual(pod.volumes?.[0], {
      name: "data",
      persistentVolumeClaim: { claimName: "audit-data" },
    });
    assert.deepEqual(container?.volumeMounts?.[0], { name: "data", mountPath: "/data" });
    // ReadWriteOnce: the Job is scheduled onto the node of the preflight pod that holds the claim.
    assert.deepEqual(pod.affinity?.podAffinity.requiredDuringSchedulingIgnoredDuringExecution, [
      {
        labelSelector: {
          matchLabels: {
            "app.kubernetes.io/name": "svc-preflight",
            "app.kubernetes.io/instance": "svc-preflight",
          },
        },
        namespaces: ["svc"],
        topologyKey: "kubernetes.io/hostname",
      },
    ]);
    assert.equal(pod.serviceAccountName, "svc-runner");
    assert.equal(pod.restartPolicy, "Never");
    assert.equal(job.spec.backoffLimit, 0);
    assert.equal(job.spec.ttlSecondsAfterFinished, 86400);
    assert.equal(container?.resources?.limits?.["nvidia.com/gpu"], undefined);
    assert.equal(pod.tolerations, undefined);
    assert.equal(pod.nodeSelector, undefined);
    assert.equal(job.metadata.labels["svc.run-id"], "run_standard_1");
    assert.equal(job.metadata.labels["app.kubernetes.io/component"], "pipeline");
    assert.equal(job.metadata.labels["svc.module"], "computational");
    assert.deepEqual(pod.securityContext, {
      runAsNonRoot: true,
      runAsUser: 10001,
      runAsGroup: 10001,
      fsGroup: 10001,
      seccompProfile: { type: "RuntimeDefault" },
    });
    assert.equal(container?.securityContext?.allowPrivilegeEscalation, false);
    assert.deepEqual(container?.securityContext?.capabilities, { drop: ["ALL"] });
  });

  test("deep + gpuDocking requests a GPU: limit, toleration, node selector and the -gpu image", async () => {
    const response = await harness.call(
      "/api/pipeline/run",
      jsonPost({ projectId: "proj-1", namespace: "svc", runId: "run_gpu_1", mode: "deep", gpuDocking: true }),
    );
    assert.equal(response.status, 201);
    const { jobName } = (await response.json()) as { jobName: string };
    const job = harness.double.getJob("svc", jobName) as unknown as JobManifest;
    assertValidJobManifest(job);
    const pod = job.spec.template.spec;
    assert.equal(pod.containers[0]?.image, "registry.example/svc/runner:1.0.0-gpu");
    assert.equal(pod.containers[0]?.resources?.limits?.["nvidia.com/gpu"], "1");
    assert.deepEqual(pod.tolerations, [{ key: "nvidia.com/gpu", operator: "Exists", effect: "NoSchedule" }]);
    assert.deepEqual(pod.nodeSelector, { "cloud.google.com/gke-accelerator": "nvidia-l4" });
    const env = Object.fromEntries((pod.containers[0]?.env ?? []).map((entry) => [entry.name, entry.value]));
    assert.equal(env.SVC_RUN_MODE, "deep");
  });

  test("deep without gpuDocking and standard with gpuDocking get no GPU", async () => {
    for (const [runId, mode, gpuDocking] of [
      ["run_deep_nogpu", "deep", false],
      ["run_std_gpuflag", "standard", true],
    ] as const) {
      const response = await harness.call(
        "/api/pipeline/run",
        jsonPost({ projectId: "p", namespace: "svc", runId, mode, gpuDocking }),
      );
      assert.equal(response.status, 201);
      const { jobName } = (await response.json()) as { jobName: string };
      const job = harness.double.getJob("svc", jobName) as unknown as JobManifest;
      assertValidJobManifest(job);
      const pod = job.spec.template.spec;
      assert.equal(pod.containers[0]?.image, "registry.example/svc/runner:1.0.0", runId);
      assert.equal(pod.containers[0]?.resources?.limits?.["nvidia.com/gpu"], undefined, runId);
      assert.equal(pod.tolerations, undefined, runId);
      assert.equal(pod.nodeSelector, undefined, runId);
    }
  });

  test("every Job the service created validates against the Kubernetes schema", () => {
    const jobs = createdJobs(harness);
    assert.ok(jobs.length >= 4);
    for (const job of jobs) assertValidJobManifest(job);
  });

  test("a run id whose Job exists is 409 RUN_ALREADY_EXISTS", async () => {
    const response = await harness.call(
      "/api/pipeline/run",
      jsonPost({ projectId: "proj-1", namespace: "svc", runId: "run_standard_1" }),
    );
    assert.equal(response.status, 409);
    assert.equal(((await response.json()) as ErrorBody).error.code, "RUN_ALREADY_EXISTS");
  });

  test("runId defaults to run_<UTC timestamp>, moduleId to computational, mode to standard", async () => {
    const response = await harness.call(
      "/api/pipeline/run",
      jsonPost({ projectId: "proj-2", namespace: "svc" }),
    );
    assert.equal(response.status, 201);
    const body = (await response.json()) as {
      runId: string;
      moduleId: string;
      mode: string;
      gpuDocking: boolean;
    };
    assert.match(body.runId, /^run_\d{8}T\d{6}Z$/);
    assert.equal(body.moduleId, "computational");
    assert.equal(body.mode, "standard");
    assert.equal(body.gpuDocking, false);
  });

  test("malformed bodies are 400 naming the field; a wrong content type is 415", async () => {
    const cases: [unknown, string][] = [
      [{ namespace: "svc" }, "projectId"],
      [{ projectId: "p", namespace: "svc", mode: "turbo" }, "mode"],
      [{ projectId: "p", namespace: "svc", gpuDocking: "yes" }, "gpuDocking"],
      [{ projectId: "../etc", namespace: "svc" }, "projectId"],
      [{ projectId: "p", namespace: "svc", runId: "run/../x" }, "runId"],
      [{ projectId: "p", namespace: "svc", gpu_docking: true }, "gpu_docking"],
      [{ projectId: "p", namespace: "svc", moduleId: "docking" }, "moduleId"],
      [{ projectId: "p", namespace: "Not A Namespace" }, "namespace"],
    ];
    for (const [body, field] of cases) {
      const response = await harness.call("/api/pipeline/run", jsonPost(body));
      assert.equal(response.status, 400, JSON.stringify(body));
      const error = ((await response.json()) as ErrorBody).error;
      assert.match(error.message, new RegExp(field), JSON.stringify(body));
    }
    const text = await harness.call("/api/pipeline/run", {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: "projectId=p",
    });
    assert.equal(text.status, 415);
    assert.equal(((await text.json()) as ErrorBody).error.code, "UNSUPPORTED_MEDIA_TYPE");
    const broken = await harness.call("/api/pipeline/run", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{not json",
    });
    assert.equal(broken.status, 400);
    assert.equal(((await broken.json()) as ErrorBody).error.code, "INVALID_BODY");
  });

  test("a namespace outside the allow list is 403 and no Job is created", async () => {
    const before = harness.double.requests.length;
    const response = await harness.call(
      "/api/pipeline/run",
      jsonPost({ projectId: "p", namespace: "kube-system" }),
    );
    assert.equal(response.status, 403);
    assert.equal(((await response.json()) as ErrorBody).error.code, "NAMESPACE_NOT_ALLOWED");
    assert.equal(harness.double.requests.length, before);
  });

  test("Kubernetes 403 (RBAC), 422 (Invalid) and 409 map to JSON errors, never a bare 500", async () => {
    harness.double.injectFailure({
      method: "POST",
      path: /\/jobs$/,
      status: 403,
      reason: "Forbidden",
      message: "jobs.batch is forbidden",
    });
    let response = await harness.call(
      "/api/pipeline/run",
      jsonPost({ projectId: "p", namespace: "svc", runId: "r403" }),
    );
    assert.equal(response.status, 403);
    let error = ((await response.json()) as ErrorBody).error;
    assert.equal(error.code, "KUBE_FORBIDDEN");
    assert.match(error.message, /forbidden/);

    harness.double.injectFailure({
      method: "POST",
      path: /\/jobs$/,
      status: 422,
      reason: "Invalid",
      message: "Job is invalid",
    });
    response = await harness.call(
      "/api/pipeline/run",
      jsonPost({ projectId: "p", namespace: "svc", runId: "r422" }),
    );
    assert.equal(response.status, 422);
    assert.equal(((await response.json()) as ErrorBody).error.code, "KUBE_INVALID");

    harness.double.injectFailure({
      method: "GET",
      path: /\/pods$/,
      status: 404,
      reason: "NotFound",
      message: 'namespaces "svc" not found',
    });
    response = await harness.call("/api/k8s/pods?namespace=svc");
    assert.equal(response.status, 404);
    error = ((await response.json()) as ErrorBody).error;
    assert.equal(error.code, "KUBE_NOT_FOUND");

    harness.double.injectFailure({ method: "GET", path: /\/pods$/, status: 500, reason: "InternalError" });
    response = await harness.call("/api/k8s/pods?namespace=svc");
    assert.equal(response.status, 502);
    assert.equal(((await response.json()) as ErrorBody).error.code, "KUBE_UNAVAILABLE");
  });
});

describe("smoke test and module status against the Kubernetes API double", () => {
  let harness: ServiceHarness;
  before(async () => {
    harness = await startServiceHarness({ env: { SVC_SMOKE_DEADLINE_SEC: "120", SVC_JOB_TTL_SEC: "600" } });
  });
  after(() => harness.close());

  async function status(): Promise<{
    state: string;
    reason: string;
    time: string | null;
    jobName: string | null;
  }> {
    const response = await harness.call("/api/modules/computational/status?namespace=svc");
    assert.equal(response.status, 200);
    const body = (await response.json()) as {
      runnerImage: string;
      runnerServiceAccount: string;
      verification: { state: string; reason: string; time: string | null; jobName: string | null };
    };
    assert.equal(body.runnerImage, "registry.example/svc/runner:1.0.0");
    assert.equal(body.runnerServiceAccount, "svc-runner");
    return body.verification;
  }

  test("status is NOT_RUN before any smoke Job", async () => {
    assert.equal((await status()).state, "NOT_RUN");
  });

  test("smoke launches a schema-valid one-shot Job running `svc-runner --help` with smoke labels", async () => {
    const response = await harness.call("/api/modules/computational/smoke", jsonPost({ namespace: "svc" }));
    assert.equal(response.status, 201);
    const { jobName } = (await response.json()) as { jobName: string };
    const job = harness.double.getJob("svc", jobName) as unknown as JobManifest;
    assertValidJobManifest(job);
    assert.equal(job.spec.backoffLimit, 0);
    assert.equal(job.spec.activeDeadlineSeconds, 120);
    assert.equal(job.spec.ttlSecondsAfterFinished, 600);
    assert.equal(job.metadata.labels["app.kubernetes.io/component"], "smoke");
    assert.equal(job.metadata.labels["svc.module"], "computational");
    const container = job.spec.template.spec.containers[0];
    assert.equal(container?.image, "registry.example/svc/runner:1.0.0");
    assert.deepEqual(container?.command, ["svc-runner", "--help"]);
    assert.equal(
      job.spec.template.spec.volumes?.some((volume) => "persistentVolumeClaim" in volume),
      false,
    );
  });

  test("status follows the newest smoke Job: PENDING, RUNNING, VERIFIED, then FAILED for a newer failed one", async () => {
    const [job] = harness.double.listJobs("svc");
    const name = job?.metadata?.name ?? "";
    harness.double.putPod({
      metadata: { name: `${name}-abcde`, namespace: "svc", labels: { "batch.kubernetes.io/job-name": name } },
      spec: { containers: [{ name: "runner", image: "registry.example/svc/runner:1.0.0" }] },
      status: {
        phase: "Pending",
        containerStatuses: [
          {
            name: "runner",
            image: "registry.example/svc/runner:1.0.0",
            ready: false,
            restartCount: 0,
            state: { waiting: { reason: "ImagePullBackOff" } },
          },
        ],
      },
    });
    harness.double.setJobStatus("svc", name, { active: 1, ready: 0 });
    let verification = await status();
    assert.equal(verification.state, "PENDING");
    assert.match(verification.reason, /ImagePullBackOff/);
    assert.equal(verification.jobName, name);

    harness.double.setJobStatus("svc", name, { active: 1, ready: 1, startTime: "2026-01-01T00:00:00Z" });
    assert.equal((await status()).state, "RUNNING");

    harness.double.setJobStatus("svc", name, {
      succeeded: 1,
      conditions: [{ type: "Complete", status: "True", lastTransitionTime: "2026-01-01T00:00:05Z" }],
    });
    verification = await status();
    assert.equal(verification.state, "VERIFIED");
    assert.equal(verification.time, "2026-01-01T00:00:05.000Z");

    harness.double.putJob({
      metadata: {
        name: "svc-smoke-computational-later",
        namespace: "svc",
        labels: { "app.kubernetes.io/component": "smoke", "svc.module": "computational" },
        creationTimestamp: "2999-01-01T00:00:00Z",
      },
      spec: { template: { spec: { restartPolicy: "Never", containers: [{ name: "runner", image: "x" }] } } },
      status: {
        failed: 1,
        conditions: [
          {
            type: "Failed",
            status: "True",
            reason: "DeadlineExceeded",
            message: "Job was active longer than specified deadline",
            lastTransitionTime: "2999-01-01T00:02:00Z",
          },
        ],
      },
    });
    verification = await status();
    assert.equal(verification.state, "FAILED");
    assert.match(verification.reason, /DeadlineExceeded/);
    assert.equal(verification.jobName, "svc-smoke-computational-later");
  });

  test("new smoke launches delete finished smoke Jobs beyond the newest three, with Background propagation", async () => {
    for (let i = 0; i < 3; i++) {
      const response = await harness.call("/api/modules/computational/smoke", jsonPost({ namespace: "svc" }));
      assert.equal(response.status, 201);
    }
    const deletes = harness.double.requests.filter((request) => request.method === "DELETE");
    assert.ok(deletes.length >= 1, "an old finished smoke Job was deleted");
    for (const request of deletes) {
      const policy =
        request.query.propagationPolicy ??
        (request.body as { propagationPolicy?: string })?.propagationPolicy;
      assert.equal(policy, "Background");
    }
  });

  test("smoke without a JSON body or with a bad namespace is 400/415/403", async () => {
    let response = await harness.call("/api/modules/computational/smoke", jsonPost({}));
    assert.equal(response.status, 400);
    assert.match(((await response.json()) as ErrorBody).error.message, /namespace/);
    response = await harness.call("/api/modules/computational/smoke", jsonPost({ namespace: 7 }));
    assert.equal(response.status, 400);
    response = await harness.call("/api/modules/computational/smoke", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "namespace=svc",
    });
    assert.equal(response.status, 415);
    response = await harness.call("/api/modules/computational/smoke", jsonPost({ namespace: "default" }));
    assert.equal(response.status, 403);
    response = await harness.call("/api/modules/computational/status");
    assert.equal(response.status, 400);
  });
});

describe("pod listing against the Kubernetes API double", () => {
  let harness: ServiceHarness;
  before(async () => {
    harness = await startServiceHarness();
    harness.double.putPod({
      metadata: {
        name: "svc-run-a-1",
        namespace: "svc",
        labels: { "batch.kubernetes.io/job-name": "svc-run-a", tier: "x" },
      },
      spec: { containers: [{ name: "runner", image: "img:1" }] },
      status: {
        phase: "Running",
        startTime: "2026-01-01T00:00:00Z",
        containerStatuses: [
          {
            name: "runner",
            image: "img:1",
            ready: true,
            restartCount: 1,
            state: { running: { startedAt: "2026-01-01T00:00:02Z" } },
          },
        ],
      },
    });
    harness.double.putPod({
      metadata: { name: "other", namespace: "svc", labels: { tier: "y" } },
      spec: { containers: [{ name: "c", image: "img:2" }] },
      status: { phase: "Succeeded" },
    });
  });
  after(() => harness.close());

  test("lists pods with phase, containers (name, image, ready, state, restarts) and start time", async () => {
    const response = await harness.call("/api/k8s/pods?namespace=svc&jobName=svc-run-a");
    assert.equal(response.status, 200);
    const body = (await response.json()) as {
      pods: { name: string; phase: string; startTime: string; containers: unknown[] }[];
    };
    assert.deepEqual(body.pods, [
      {
        name: "svc-run-a-1",
        phase: "Running",
        startTime: "2026-01-01T00:00:00.000Z",
        containers: [
          {
            name: "runner",
            image: "img:1",
            ready: true,
            restarts: 1,
            state: { kind: "running", since: "2026-01-01T00:00:02.000Z" },
          },
        ],
      },
    ]);
    assert.equal(
      harness.double.requests.at(-1)?.query.labelSelector,
      "batch.kubernetes.io/job-name=svc-run-a",
    );
  });

  test("a label selector filters; an existing kubeconfig context is used", async () => {
    const response = await harness.call("/api/k8s/pods?namespace=svc&label=tier%20in%20(y)&context=staging");
    assert.equal(response.status, 200);
    const body = (await response.json()) as { pods: { name: string }[]; context: string };
    assert.deepEqual(
      body.pods.map((pod) => pod.name),
      ["other"],
    );
    assert.equal(body.context, "staging");
  });

  test("bad jobName, bad label selector, unknown context and foreign namespace are refused before any API call", async () => {
    const before = harness.double.requests.length;
    const cases: [string, number, string][] = [
      ["/api/k8s/pods?namespace=svc&jobName=Bad_Name", 400, "INVALID_INPUT"],
      ["/api/k8s/pods?namespace=svc&label=a%3Db%2C", 400, "INVALID_INPUT"],
      ["/api/k8s/pods?namespace=svc&label=a%20b", 400, "INVALID_INPUT"],
      ["/api/k8s/pods?namespace=svc&context=prod", 400, "KUBE_CONTEXT_UNKNOWN"],
      ["/api/k8s/pods?namespace=kube-system", 403, "NAMESPACE_NOT_ALLOWED"],
      ["/api/k8s/pods", 400, "INVALID_INPUT"],
      ["/api/k8s/pods?namespace=svc&namespace=other", 400, "INVALID_INPUT"],
    ];
    for (const [path, status, code] of cases) {
      const response = await harness.call(path);
      assert.equal(response.status, status, path);
      assert.equal(((await response.json()) as ErrorBody).error.code, code, path);
    }
    assert.equal(harness.double.requests.length, before);
  });
});

describe("no Kubernetes configuration at all", () => {
  let harness: ServiceHarness;
  before(async () => {
    harness = await startServiceHarness({ withoutKube: true });
  });
  after(() => harness.close());

  test("the service starts; config says so; Kubernetes endpoints answer 503 KUBERNETES_NOT_CONFIGURED", async () => {
    const health = await fetch(`${harness.baseUrl}/api/health`);
    assert.equal(health.status, 200);
    const config = (await (await fetch(`${harness.baseUrl}/api/config`)).json()) as {
      inCluster: boolean;
      kubernetes: { configured: boolean };
    };
    assert.equal(config.inCluster, false);
    assert.equal(config.kubernetes.configured, false);
    for (const [path, init] of [
      ["/api/k8s/pods?namespace=svc", undefined],
      ["/api/modules/computational/status?namespace=svc", undefined],
      ["/api/modules/computational/smoke", jsonPost({ namespace: "svc" })],
      ["/api/pipeline/run", jsonPost({ projectId: "p", namespace: "svc" })],
    ] as const) {
      const response = await harness.call(path, init);
      assert.equal(response.status, 503, path);
      const error = ((await response.json()) as ErrorBody).error;
      assert.equal(error.code, "KUBERNETES_NOT_CONFIGURED", path);
      assert.match(error.message, /not configured/);
    }
  });
});

describe("pipeline launch without the runner settings", () => {
  let harness: ServiceHarness;
  before(async () => {
    harness = await startServiceHarness({ env: { SVC_RUNNER_IMAGE: "", SVC_APP_FULLNAME: "" } });
  });
  after(() => harness.close());

  test("is 503 RUNNER_NOT_CONFIGURED naming both missing settings", async () => {
    const response = await harness.call("/api/pipeline/run", jsonPost({ projectId: "p", namespace: "svc" }));
    assert.equal(response.status, 503);
    const error = ((await response.json()) as ErrorBody).error;
    assert.equal(error.code, "RUNNER_NOT_CONFIGURED");
    assert.match(error.message, /SVC_RUNNER_IMAGE/);
    assert.match(error.message, /SVC_APP_FULLNAME/);
  });
});

describe("sharded launch on a ReadWriteMany claim", () => {
  let harness: ServiceHarness;
  before(async () => {
    // The chart's ReadWriteMany layout: no co-location with the preflight pod.
    harness = await startServiceHarness({
      env: {
        SVC_ENTITLEMENT_URL: "https://entitlement.example",
        SVC_ENTITLEMENT_AUTH_MODE: "cloud",
        SVC_INPUT_ROOT: "/data/input",
        SVC_OUTPUT_ROOT: "/data/output",
        SVC_DATA_CLAIM: "audit-data",
      },
    });
  });
  after(() => harness.close());

  test("a sharded run is one Indexed Job with a pod per shard, each told the shard count", async () => {
    const response = await harness.call(
      "/api/pipeline/run",
      jsonPost({ projectId: "proj-1", namespace: "svc", runId: "run_sharded_1", shards: 3 }),
    );
    assert.equal(response.status, 201);
    const body = (await response.json()) as { jobName: string; shards: number };
    assert.equal(body.shards, 3);
    const job = harness.double.getJob("svc", body.jobName) as unknown as JobManifest;
    assertValidJobManifest(job);
    assert.equal(job.spec.completionMode, "Indexed");
    assert.equal(job.spec.completions, 3);
    assert.equal(job.spec.parallelism, 3);
    const env = job.spec.template.spec.containers[0]?.env ?? [];
    assert.deepEqual(
      env.find((entry) => entry.name === "SVC_SHARDS"),
      { name: "SVC_SHARDS", value: "3" },
    );
    const refused = await harness.call(
      "/api/pipeline/run",
      jsonPost({ projectId: "proj-1", namespace: "svc", runId: "run_sharded_2", shards: 0 }),
    );
    assert.equal(refused.status, 400);
    assert.match(await refused.text(), /shards/);
  });
});
