import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { ID_RULE, runDetailResponseSchema, runListResponseSchema } from "@svc/core";
import type { JobManifest } from "../src/kube/kube-gateway.ts";
import { jsonPost, type ServiceHarness, startServiceHarness } from "./service-harness.ts";

// docs/contracts/run-id.md: a run id of up to 128 characters, which the runner accepts and the
// entitlement service charges, must also be launchable, listable and downloadable here.
const LONG_RUN_ID = `run_${"a1b2c3d4e5".repeat(9)}-long6`;
const LONG_PROJECT_ID = `project.${"x".repeat(80)}9`;

describe("a 100-character run id through preflight", () => {
  let harness: ServiceHarness;
  before(async () => {
    harness = await startServiceHarness();
  });
  after(() => harness.close());

  test("launch labels the Job with a label-safe form and annotates the full ids", async () => {
    assert.equal(LONG_RUN_ID.length, 100);
    const response = await harness.call(
      "/api/pipeline/run",
      jsonPost({ projectId: LONG_PROJECT_ID, namespace: "svc", runId: LONG_RUN_ID }),
    );
    assert.equal(response.status, 201);
    const { jobName } = (await response.json()) as { jobName: string };
    const job = harness.double.getJob("svc", jobName) as unknown as JobManifest;
    const label = job.metadata.labels["svc.run-id"] ?? "";
    assert.ok(label.length <= 63, "a label value holds at most 63 characters");
    assert.notEqual(label, LONG_RUN_ID);
    assert.equal(job.metadata.annotations?.["svc.run-id"], LONG_RUN_ID);
    assert.equal(job.metadata.annotations?.["svc.project-id"], LONG_PROJECT_ID);
  });

  test("the run is listed, detailed and its outputs downloaded under the full id", async () => {
    const file = join(harness.outputRoot, LONG_RUN_ID, "results", "summary.json");
    await mkdir(join(file, ".."), { recursive: true });
    await writeFile(file, JSON.stringify({ category_id: "ligand_only" }));

    const list = runListResponseSchema.parse(await (await harness.call("/api/runs")).json());
    const listed = list.runs.filter((run) => run.runId === LONG_RUN_ID);
    assert.equal(listed.length, 1, "the Job and the folder are one run");
    assert.equal(listed[0]?.projectId, LONG_PROJECT_ID);
    assert.notEqual(listed[0]?.jobName, null);

    const detail = runDetailResponseSchema.parse(
      await (await harness.call(`/api/runs/${LONG_RUN_ID}`)).json(),
    );
    assert.equal(detail.job?.name, listed[0]?.jobName);
    assert.equal(detail.projectId, LONG_PROJECT_ID);

    const download = await harness.call(
      `/api/outputs/download?runId=${LONG_RUN_ID}&path=results/summary.json`,
    );
    assert.equal(download.status, 200);
    assert.deepEqual(await download.json(), { category_id: "ligand_only" });
  });

  test("an id outside the grammar is refused with core's one message on every route", async () => {
    for (const bad of ["run-", "a".repeat(129), "run:1"]) {
      const launched = await harness.call(
        "/api/pipeline/run",
        jsonPost({ projectId: "proj-1", namespace: "svc", runId: bad }),
      );
      assert.equal(launched.status, 400);
      assert.match(((await launched.json()) as { error: { message: string } }).error.message, /runId/);
      for (const path of [`/api/runs/${bad}`, `/api/outputs/list?runId=${bad}`]) {
        const response = await harness.call(path);
        assert.equal(response.status, 400, path);
        const { error } = (await response.json()) as { error: { message: string } };
        assert.equal(error.message, `runId ${ID_RULE}`, path);
      }
    }
  });
});
