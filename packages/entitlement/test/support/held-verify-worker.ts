// A verification worker that runs core's verifySealSvg, except for an upload reading
// `hold <path>`: that one keeps this (the pool's only) worker busy until the test creates <path>.
// It lets a test saturate a 1-worker pool with no queue for as long as it needs, with no timing.
import { existsSync } from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import { type TrustedKey, verifySealSvg } from "@svc/core";

const trustedKeys = workerData as TrustedKey[];
const HOLD = "hold ";

parentPort?.on("message", (job: { id: number; bytes: Uint8Array }) => {
  const text = Buffer.from(job.bytes).toString("utf8");
  if (text.startsWith(HOLD)) {
    const release = text.slice(HOLD.length);
    const pause = new Int32Array(new SharedArrayBuffer(4));
    while (!existsSync(release)) Atomics.wait(pause, 0, 0, 20);
    parentPort?.postMessage({
      id: job.id,
      result: { state: "INVALID", reason: "held", reason_code: "SVG_UNREADABLE", checks: [], payload: null },
    });
    return;
  }
  const { signature: _signature, ...result } = verifySealSvg(job.bytes, trustedKeys);
  parentPort?.postMessage({ id: job.id, result });
});
parentPort?.postMessage({ ready: true });
