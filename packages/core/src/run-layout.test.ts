import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isSafeId } from "./contracts/run-id.ts";
import {
  DEFAULT_PVC_LAYOUT,
  dataClaimName,
  inputRootOf,
  isProjectScopedOutput,
  outputRootOf,
  projectSourcesDir,
  runnerRootsEnv,
  runOutputDir,
  runStatusPath,
  runStatusPathOfRunDir,
  type StorageLayout,
} from "./run-layout.ts";

const bucket: StorageLayout = { kind: "cloudstore", bucket: "audit-bucket", mountPath: "/data/" };
const run = { projectId: "proj-1", runId: "run_1" };

describe("run layout", () => {
  it("puts PVC inputs at /data/input/<project>/01_sources and outputs at /data/output/<run> (spec §2.2, §2.3)", () => {
    assert.equal(projectSourcesDir(DEFAULT_PVC_LAYOUT, "proj-1"), "/data/input/proj-1/01_sources");
    assert.equal(runOutputDir(DEFAULT_PVC_LAYOUT, run), "/data/output/run_1");
    assert.equal(isProjectScopedOutput(DEFAULT_PVC_LAYOUT), false);
  });

  it("puts cloudstore inputs at <bucket>/<project>/01_sources and runs at <bucket>/<project>/results/<run> (spec §2.8 step 8)", () => {
    assert.equal(projectSourcesDir(bucket, "proj-1"), "/data/proj-1/01_sources");
    assert.equal(runOutputDir(bucket, run), "/data/proj-1/results/run_1");
    assert.equal(isProjectScopedOutput(bucket), true);
  });

  it("gives the runner roots from which it derives the same two paths", () => {
    for (const layout of [DEFAULT_PVC_LAYOUT, bucket]) {
      const env = runnerRootsEnv(layout, run.projectId);
      assert.equal(
        `${env.SVC_INPUT_ROOT}/${run.projectId}/01_sources`,
        projectSourcesDir(layout, run.projectId),
      );
      assert.equal(`${env.SVC_OUTPUT_ROOT}/${run.runId}`, runOutputDir(layout, run));
    }
  });

  it("ignores a trailing slash on configured roots", () => {
    const layout: StorageLayout = { kind: "pvc", inputRoot: "/mnt/in/", outputRoot: "/mnt/out//" };
    assert.equal(inputRootOf(layout), "/mnt/in");
    assert.equal(outputRootOf(layout, "p"), "/mnt/out");
  });

  it("names the claim <release>-data within 63 characters, like the job chart", () => {
    assert.equal(dataClaimName("audit"), "audit-data");
    const long = `${"a".repeat(57)}-bbbb`;
    assert.equal(dataClaimName(long), `${"a".repeat(57)}-data`);
    assert.ok(dataClaimName("x".repeat(80)).length <= 63);
  });

  it("keeps a run's status record beside its folder, under a name outside the run-id grammar", () => {
    assert.equal(runStatusPath("/data/output/", "run_1"), "/data/output/.run-status/run_1.json");
    assert.equal(runStatusPathOfRunDir("/data/output/run_1/"), "/data/output/.run-status/run_1.json");
    assert.equal(isSafeId(".run-status"), false);
  });
});
