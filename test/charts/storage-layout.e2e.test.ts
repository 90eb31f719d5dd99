import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { DEFAULT_PVC_LAYOUT, dataClaimName, runnerRootsEnv, type StorageLayout } from "@svc/core";
import { envValue, podTemplateOf } from "../support/chart-assertions.ts";
import { findObject, renderChart } from "../support/render.ts";
import { repoRoot } from "../support/repo-root.ts";

// docs/contracts/storage-layout.md: the charts and tools derive their paths and claim names from
// packages/core/src/run-layout.ts. Each check renders a chart and compares with the module.
const jobBase = {
  "config.projectId": "proj-1",
  "config.runId": "run_1",
  "ubbagent.image.digest": `sha256:${"cd".repeat(32)}`,
};
const bucket: StorageLayout = { kind: "cloudstore", bucket: "audit-bucket", mountPath: "/data" };

async function jobConfig(set: Record<string, string>): Promise<Record<string, string>> {
  const objects = await renderChart({
    chart: "manifest/chart",
    release: "audit",
    set: { ...jobBase, ...set },
  });
  return findObject(objects, "ConfigMap", "audit-config").data as Record<string, string>;
}

async function preflightEnv(set: Record<string, string>): Promise<(name: string) => string | undefined> {
  const objects = await renderChart({ chart: "chart/preflight", release: "svc-preflight", set });
  const container = podTemplateOf(findObject(objects, "Deployment", "svc-preflight-preflight")).spec
    .containers[0];
  assert.ok(container);
  return (name) => envValue(container, name);
}

describe("charts and tools follow the one storage layout (packages/core/src/run-layout.ts)", () => {
  it("job chart: the runner roots are the layout's, for pvc and cloudstore", async () => {
    const pvc = await jobConfig({});
    assert.deepEqual(
      { SVC_INPUT_ROOT: pvc.SVC_INPUT_ROOT, SVC_OUTPUT_ROOT: pvc.SVC_OUTPUT_ROOT },
      runnerRootsEnv(DEFAULT_PVC_LAYOUT, "proj-1"),
    );
    const cloud = await jobConfig({
      "storage.type": "cloudstore",
      "storage.cloudstore.bucket": "audit-bucket",
    });
    assert.deepEqual(
      { SVC_INPUT_ROOT: cloud.SVC_INPUT_ROOT, SVC_OUTPUT_ROOT: cloud.SVC_OUTPUT_ROOT },
      runnerRootsEnv(bucket, "proj-1"),
    );
  });

  it("preflight chart: mounts the job release's claim and reads the job chart's roots", async () => {
    const job = await renderChart({ chart: "manifest/chart", release: "audit", set: jobBase });
    const claim = job.find((o) => o.kind === "PersistentVolumeClaim");
    assert.equal(claim?.metadata.name, dataClaimName("audit"));
    const env = await preflightEnv({ jobRelease: "audit" });
    assert.equal(env("SVC_DATA_CLAIM"), dataClaimName("audit"));
    assert.equal(
      env("SVC_INPUT_ROOT"),
      DEFAULT_PVC_LAYOUT.kind === "pvc" ? DEFAULT_PVC_LAYOUT.inputRoot : "",
    );
    assert.equal(
      env("SVC_OUTPUT_ROOT"),
      DEFAULT_PVC_LAYOUT.kind === "pvc" ? DEFAULT_PVC_LAYOUT.outputRoot : "",
    );
    const cloud = await preflightEnv({
      "storage.type": "cloudstore",
      "storage.cloudstore.bucket": "audit-bucket",
    });
    assert.equal(env("SVC_STORAGE_MODE"), "pvc");
    assert.equal(cloud("SVC_STORAGE_MODE"), "cloudstore");
    assert.equal(cloud("SVC_CLOUDSTORE_BUCKET"), bucket.kind === "cloudstore" ? bucket.bucket : "");
    assert.equal(cloud("SVC_CLOUDSTORE_MOUNT_PATH"), bucket.kind === "cloudstore" ? bucket.mountPath : "");
  });

  it("tools: the claim, input root and cloudstore paths the scripts use are the layout's", async () => {
    const stage = await readFile(join(repoRoot, "tools", "stage_inputs.sh"), "utf8");
    const fetch = await readFile(join(repoRoot, "tools", "fetch_outputs.sh"), "utf8");
    assert.match(stage, /claim=\$\{claim:-\$release-data\}/);
    assert.match(stage, /input_root="\/data\/input"/);
    assert.match(stage, /gs:\/\/\$bucket\/\$project_id\/01_sources/);
    assert.match(fetch, /claim=\$\{claim:-\$release-data\}/);
    assert.match(fetch, /output_root="\/data\/output"/);
    assert.match(fetch, /\$project_id\/results\/\$run_id/);
    assert.deepEqual(DEFAULT_PVC_LAYOUT, {
      kind: "pvc",
      inputRoot: "/data/input",
      outputRoot: "/data/output",
    });
    assert.equal(dataClaimName("audit"), "audit-data");
  });
});
