import assert from "node:assert/strict";
import { getPriority } from "node:os";
import { describe, it } from "node:test";
import { Worker } from "node:worker_threads";
import { lowerThisThreadPriority } from "./lower-thread-priority.ts";

const MODULE = new URL("./lower-thread-priority.ts", import.meta.url).href;

/** Runs lowerThisThreadPriority(steps) in a fresh worker thread; its answer. */
function inWorker(steps: number): Promise<number | null> {
  const worker = new Worker(
    `import { parentPort } from "node:worker_threads";
     const { lowerThisThreadPriority } = await import(${JSON.stringify(MODULE)});
     parentPort.postMessage(lowerThisThreadPriority(${steps}));`,
    { eval: true },
  );
  return new Promise((resolve, reject) => {
    worker.once("message", (nice: number | null) => void worker.terminate().then(() => resolve(nice)));
    worker.once("error", reject);
  });
}

describe("a verification worker yields the CPU to the event loop (issue 9 item 7)", () => {
  const linux = process.platform === "linux";

  it("raises its own thread's nice value and leaves the process's alone", {
    skip: !linux && "Linux only",
  }, async () => {
    const before = getPriority();
    const nice = await inWorker(10);
    assert.equal(nice, Math.min(19, before + 10));
    assert.equal(getPriority(), before, "the main thread (the event loop) keeps its priority");
  });

  it("never renices the main thread", () => {
    const before = getPriority();
    assert.equal(lowerThisThreadPriority(10), null);
    assert.equal(getPriority(), before);
  });
});
