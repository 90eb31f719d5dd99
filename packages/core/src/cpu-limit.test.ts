import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { containerCpuLimit, parseCgroupV1Quota, parseCgroupV2CpuMax } from "./cpu-limit.ts";

test("cgroup v2 cpu.max gives the quota in CPUs, rounded up; max means unlimited", () => {
  assert.equal(parseCgroupV2CpuMax("200000 100000\n"), 2);
  assert.equal(parseCgroupV2CpuMax("150000 100000"), 2);
  assert.equal(parseCgroupV2CpuMax("50000 100000"), 1);
  assert.equal(parseCgroupV2CpuMax("max 100000"), null);
});

test("cgroup v1 quota and period give CPUs; -1 means unlimited", () => {
  assert.equal(parseCgroupV1Quota("300000", "100000"), 3);
  assert.equal(parseCgroupV1Quota("-1", "100000"), null);
});

test("the container limit is the cgroup quota, never more than the host's CPUs", async (t) => {
  const root = await mkdtemp(join(tmpdir(), "cpu-limit-"));
  t.after(() => rm(root, { recursive: true, force: true }));
  await writeFile(join(root, "cpu.max"), "100000 100000\n");
  assert.equal(containerCpuLimit(root), 1);
  await writeFile(join(root, "cpu.max"), "6400000 100000\n");
  assert.equal(containerCpuLimit(root), availableParallelism());
  const v1 = join(root, "v1");
  await mkdir(join(v1, "cpu"), { recursive: true });
  await writeFile(join(v1, "cpu", "cpu.cfs_quota_us"), "100000\n");
  await writeFile(join(v1, "cpu", "cpu.cfs_period_us"), "100000\n");
  assert.equal(containerCpuLimit(v1), 1);
  assert.equal(containerCpuLimit(join(root, "none")), availableParallelism());
});
