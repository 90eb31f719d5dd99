// A verification worker double with a known cost, for the pool's queue and timeout tests: the
// upload's text is the number of milliseconds to block this thread, then it answers INVALID.
import { parentPort } from "node:worker_threads";

parentPort?.on("message", (job: { id: number; bytes: Uint8Array }) => {
  const blockMs = Number(Buffer.from(job.bytes).toString("utf8"));
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, blockMs);
  parentPort?.postMessage({
    id: job.id,
    result: { state: "INVALID", reason: `blocked ${blockMs} ms`, checks: [], payload: null },
  });
});
// loaded: from now on a job's time limit runs
parentPort?.postMessage({ ready: true });
