import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, test } from "node:test";
import { runOutputDir } from "@svc/core";
import { makeTempDir } from "@svc/testing";
import type { JobManifest } from "../src/kube/kube-gateway.ts";
import { jsonPost, startServiceHarness } from "./service-harness.ts";

interface ErrorBody {
  error: { code: string; message: string };
}

describe("storage layout (docs/contracts/storage-layout.md)", () => {
  test("cloudstore: runs are read from <bucket>/<project>/results/<run> and need projectId; launched Jobs write there", async (t) => {
    const mount = await makeTempDir("svc-preflight-bucket-", t);
    const harness = await startServiceHarness({
      env: {
        SVC_STORAGE_MODE: "cloudstore",
        SVC_CLOUDSTORE_BUCKET: "audit-bucket",
        SVC_CLOUDSTORE_MOUNT_PATH: mount,
        SVC_DATA_CLAIM: "",
      },
    });
    t.after(() => harness.close());
    const layout = harness.config.layout;
    const runDir = runOutputDir(layout, { projectId: "proj-1", runId: "run_1" });
    assert.equal(runDir, join(mount, "proj-1", "results", "run_1"));
    await mkdir(join(runDir, "results"), { recursive: true });
    await writeFile(join(runDir, "results", "summary.json"), '{"ok":true}');

    const refused = await harness.call("/api/outputs/list?runId=run_1");
    assert.equal(refused.status, 400);
    const body = (await refused.json()) as ErrorBody;
    assert.equal(body.error.code, "INVALID_INPUT");
    assert.match(body.error.message, /projectId/);

    const listed = await harness.call("/api/outputs/list?runId=run_1&projectId=proj-1");
    assert.equal(listed.status, 200);
    const download = await harness.call(
      "/api/outputs/download?runId=run_1&projectId=proj-1&path=results/summary.json",
    );
    assert.equal(await download.text(), '{"ok":true}');

    const launched = await harness.call(
      "/api/pipeline/run",
      jsonPost({ projectId: "proj-1", namespace: "svc", runId: "run_2" }),
    );
    assert.equal(launched.status, 201, await launched.clone().text());
    const job = harness.double.requests.find((r) => r.method === "POST" && r.status === 201)
      ?.body as JobManifest;
    const pod = job.spec.template;
    assert.equal(pod.metadata.annotations?.["gke-gcsfuse/volumes"], "true");
    assert.deepEqual(pod.spec.volumes?.[0], {
      name: "data",
      csi: {
        driver: "gcsfuse.csi.storage.gke.io",
        volumeAttributes: { bucketName: "audit-bucket", mountOptions: "implicit-dirs,uid=10001,gid=10001" },
      },
    });
    const env = Object.fromEntries((pod.spec.containers[0]?.env ?? []).map((e) => [e.name, e.value]));
    assert.equal(
      `${env.SVC_OUTPUT_ROOT}/run_2`,
      runOutputDir(layout, { projectId: "proj-1", runId: "run_2" }),
    );
    assert.equal(env.SVC_INPUT_ROOT, mount);
  });

  test("/api/config lists every setting a launched Job needs, and launch refuses naming them", async (t) => {
    const harness = await startServiceHarness({
      env: { SVC_DATA_CLAIM: "", SVC_ENTITLEMENT_URL: "", SVC_RUNNER_SERVICE_ACCOUNT: "" },
    });
    t.after(() => harness.close());
    const config = (await (await fetch(`${harness.baseUrl}/api/config`)).json()) as {
      runner: { pipelineLaunchReady: boolean; missingSettings: string[] };
    };
    assert.equal(config.runner.pipelineLaunchReady, false);
    assert.deepEqual(config.runner.missingSettings, [
      "SVC_DATA_CLAIM",
      "SVC_ENTITLEMENT_URL",
      "SVC_RUNNER_SERVICE_ACCOUNT",
    ]);
    const refused = await harness.call("/api/pipeline/run", jsonPost({ projectId: "p", namespace: "svc" }));
    assert.equal(refused.status, 503);
    const body = (await refused.json()) as ErrorBody;
    assert.equal(body.error.code, "RUNNER_NOT_CONFIGURED");
    for (const name of config.runner.missingSettings) assert.match(body.error.message, new RegExp(name));
  });

  test("k8s auth mode needs no runner service account for readiness", async (t) => {
    const harness = await startServiceHarness({
      env: { SVC_ENTITLEMENT_AUTH_MODE: "k8s", SVC_RUNNER_SERVICE_ACCOUNT: "" },
    });
    t.after(() => harness.close());
    const config = (await (await fetch(`${harness.baseUrl}/api/config`)).json()) as {
      runner: { pipelineLaunchReady: boolean; missingSettings: string[] };
    };
    assert.deepEqual(config.runner.missingSettings, []);
    assert.equal(config.runner.pipelineLaunchReady, true);
  });
});

test("pvc mode refuses to launch a run in another allowed namespace, where the claim does not exist", async (t) => {
  const harness = await startServiceHarness({ env: { SVC_ALLOWED_NAMESPACES: "svc,team-b" } });
  t.after(() => harness.close());
  const response = await harness.call("/api/pipeline/run", jsonPost({ projectId: "p", namespace: "team-b" }));
  assert.equal(response.status, 400);
  const body = (await response.json()) as ErrorBody;
  assert.equal(body.error.code, "INVALID_BODY");
  assert.match(body.error.message, /^namespace: runs read and write the claim audit-data in namespace svc/);
  assert.equal(harness.double.listJobs("team-b").length, 0);
});
