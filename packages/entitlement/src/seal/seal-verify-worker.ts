// One worker of the seal verification pool: runs core's verifySealSvg off the service's event loop
// (issue 9 item 7). It receives the trusted keys once and then one upload per message.
import { parentPort, workerData } from "node:worker_threads";
import { type TrustedKey, verifySealSvg } from "@svc/core";

const trustedKeys = workerData as TrustedKey[];

parentPort?.on("message", (job: { id: number; svg: Uint8Array }) => {
  const { signature: _signature, ...result } = verifySealSvg(job.svg, trustedKeys);
  parentPort?.postMessage({ id: job.id, result });
});
// loaded: from now on a job's time limit runs
parentPort?.postMessage({ ready: true });
