// One worker of the seal verification pool: runs core's verifySealSvg off the service's event loop
// (issue 9 item 7). It receives the trusted keys once and then one upload per message.
import { parentPort, workerData } from "node:worker_threads";
import { type TrustedKey, verifySealSvg } from "@svc/core";
import { lowerThisThreadPriority } from "./lower-thread-priority.ts";

/**
 * Nice steps below the event loop: CFS weighs nice 0 at 1024 and nice 10 at 110 (the kernel's
 * sched_prio_to_weight table), so a runnable event loop gets ~9x a worker's share of a CPU.
 */
const VERIFY_NICE_STEPS = 10;
const trustedKeys = workerData as TrustedKey[];
// Verifying is the service's only CPU-heavy work and any client can ask for it: on contended CPUs
// the event loop (health, consume, the answers these verifications feed) goes first.
lowerThisThreadPriority(VERIFY_NICE_STEPS);

// the upload's bytes arrive transferred (no copy); decoding and parsing them happen here
parentPort?.on("message", (job: { id: number; bytes: Uint8Array }) => {
  const { signature: _signature, ...result } = verifySealSvg(job.bytes, trustedKeys);
  parentPort?.postMessage({ id: job.id, result });
});
// loaded: from now on a job's time limit runs
parentPort?.postMessage({ ready: true });
