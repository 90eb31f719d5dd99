import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { describeToolFailure, processCpuMs, runTool } from "./run-tool.ts";

describe("runTool budgets (issues 37 item 3, 43)", () => {
  it("stops a program that spends its CPU-time budget (SIGXCPU, said as the CPU budget) and lets one that waits finish", async () => {
    // A busy loop spends CPU as fast as the machine lets it: stopped at 1 s of CPU, however loaded.
    const busy = await runTool(process.execPath, ["-e", "for(;;);"], { cpuSeconds: 1, timeoutMs: 120_000 });
    assert.equal(busy.signal, "SIGXCPU");
    assert.match(
      describeToolFailure("vina", busy, 120_000, 1) ?? "",
      /vina exceeded its CPU-time budget of 1 s/,
    );
    // A program that sleeps 1.5 s uses almost no CPU: the same budget lets it finish.
    const sleeper = await runTool(process.execPath, ["-e", "setTimeout(() => {}, 1500)"], {
      cpuSeconds: 1,
      timeoutMs: 60_000,
    });
    assert.equal(sleeper.status, 0);
    // The wall clock stays the ceiling for a program that hangs without using CPU.
    const hung = await runTool(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], {
      cpuSeconds: 10,
      timeoutMs: 500,
    });
    assert.equal(hung.timedOut, true);
    assert.match(describeToolFailure("vina", hung, 500, 10) ?? "", /time budget of 500 ms/);
  });

  it("reads a live process's CPU time from /proc, and null for one that is gone", () => {
    const own = processCpuMs(process.pid);
    assert.ok(own !== null && own > 0);
    assert.equal(processCpuMs(2 ** 22 + 12345), null);
  });
});
