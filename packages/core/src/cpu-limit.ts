import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";

/**
 * CPUs from a cgroup v2 `cpu.max` ("<quota> <period>" or "max <period>"), rounded up; null
 * when unlimited or unreadable.
 */
export function parseCgroupV2CpuMax(text: string): number | null {
  const [quota, period] = text.trim().split(/\s+/);
  if (quota === undefined || quota === "max") return null;
  return cpusOf(Number(quota), Number(period ?? "100000"));
}

/** CPUs from cgroup v1 `cpu.cfs_quota_us` / `cpu.cfs_period_us` (-1 = unlimited). */
export function parseCgroupV1Quota(quotaText: string, periodText: string): number | null {
  return cpusOf(Number(quotaText.trim()), Number(periodText.trim()));
}

function cpusOf(quota: number, period: number): number | null {
  if (!Number.isFinite(quota) || !Number.isFinite(period) || quota <= 0 || period <= 0) return null;
  return Math.max(1, Math.ceil(quota / period));
}

/**
 * The CPUs this container may use: the cgroup quota (v2, else v1) capped by the CPUs the
 * process can be scheduled on. A pod limited to 2 CPUs on a 64-core node gets 2, not 64
 * (issue 10 item 4). `root` is the cgroup mount, for tests.
 */
export function containerCpuLimit(root = "/sys/fs/cgroup"): number {
  const host = availableParallelism();
  const read = (path: string) => {
    try {
      return readFileSync(join(root, path), "utf8");
    } catch {
      return null;
    }
  };
  const v2 = read("cpu.max");
  let quota: number | null = v2 === null ? null : parseCgroupV2CpuMax(v2);
  if (v2 === null) {
    const q = read("cpu/cpu.cfs_quota_us") ?? read("cpu,cpuacct/cpu.cfs_quota_us");
    const p = read("cpu/cpu.cfs_period_us") ?? read("cpu,cpuacct/cpu.cfs_period_us");
    quota = q === null || p === null ? null : parseCgroupV1Quota(q, p);
  }
  return quota === null ? host : Math.min(host, quota);
}
