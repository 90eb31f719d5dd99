const MIB = 1024 * 1024;

/**
 * Memory at a stage boundary, in MiB, for the logs (issue 10 item 4: RSS flat from 5k to 50k
 * compounds). `rss` and `max_rss` are the whole process, worker threads and their RDKit
 * WebAssembly heaps included; `heap_used` is this thread's JavaScript heap. `cpu_s` is the CPU
 * time of every thread of the process so far, so the runner bench reads each stage's CPU from
 * the differences between boundaries (issue 42 item 1).
 */
export function memoryFields(): Record<string, number> {
  const usage = process.memoryUsage();
  const { userCPUTime, systemCPUTime } = process.resourceUsage();
  return {
    cpu_s: Math.round((userCPUTime + systemCPUTime) / 10_000) / 100,
    rss_mib: Math.round(usage.rss / MIB),
    max_rss_mib: Math.round(process.resourceUsage().maxRSS / 1024),
    heap_used_mib: Math.round(usage.heapUsed / MIB),
    heap_total_mib: Math.round(usage.heapTotal / MIB),
    // Buffers (file chunks) live outside the heap until a collection frees them.
    external_mib: Math.round(usage.external / MIB),
  };
}
