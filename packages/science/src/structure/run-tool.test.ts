import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { describeToolFailure, processCpuMs, runTool } from "./run-tool.ts";

describe("runTool budgets (issue 37 item 3)", () => {
  it("kills a program that spends its CPU budget, reports it as the CPU budget, and leaves one that waits (no CPU) alone", async () => {
    // A busy loop spends CPU as fast as the machine lets it: killed at 400 ms of CPU, however loaded.
    const busy = await runTool(process.execPath, ["-e", "for(;;);"], { cpuBudgetMs: 400, timeoutMs: 60_000 });
    assert.equal(busy.timedOut, true);
    assert.equal(busy.budget, "cpu");
    assert.ok((busy.cpuMs ?? 0) >= 400, `cpu ${busy.cpuMs} ms`);
    assert.match(describeToolFailure("vina", busy, 400) ?? "", /vina exceeded its CPU budget of 400 ms CPU/);
    // A program that sleeps 1.5 s uses almost no CPU: the same CPU budget lets it finish.
    const sleeper = await runTool(process.execPath, ["-e", "setTimeout(() => {}, 1500)"], {
      cpuBudgetMs: 400,
      timeoutMs: 60_000,
    });
    assert.equal(sleeper.timedOut, false);
    assert.equal(sleeper.status, 0);
    // The wall clock stays the ceiling for a program that hangs without using CPU.
    const hung = await runTool(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], {
      cpuBudgetMs: 10_000,
      timeoutMs: 500,
    });
    assert.equal(hung.budget, "wall");
    assert.match(describeToolFailure("vina", hung, 500) ?? "", /time budget of 500 ms/);
  });

  it("reads a live process's CPU time from /proc, and null for one that is gone", () => {
    const own = processCpuMs(process.pid);
    assert.ok(own !== null && own > 0);
    assert.equal(processCpuMs(2 ** 22 + 12345), null);
  });
});
