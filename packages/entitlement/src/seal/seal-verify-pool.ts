import { Worker } from "node:worker_threads";
import { containerCpuLimit, refuseOversizeSeal, type SealVerification, type TrustedKey } from "@svc/core";
import { EntitlementError } from "../errors/entitlement-error.ts";
import type { SvgUpload } from "../http/svg-upload.ts";

/** A seal verification without the raw signature (the routes never send it). */
export type SealVerdict = Omit<SealVerification, "signature">;

/** Verifies uploads off the event loop (issue 9 item 7); the HTTP routes depend on this role. */
export interface SealVerifier {
  /** Verifies an upload; its bytes are handed over (transferred), so each upload is verified once. */
  verify(upload: SvgUpload): Promise<SealVerdict>;
  close(): Promise<void>;
}

export interface SealVerifyPoolOptions {
  readonly trustedKeys: readonly TrustedKey[];
  /** Worker threads; default one less than the cores, at least 1. */
  readonly workers?: number;
  /** Uploads waiting for a worker before new ones are refused with 503 VERIFY_BUSY. */
  readonly queueMax?: number;
  /** A verification running longer ends its worker and answers 400 SVG_UNREADABLE. */
  readonly timeoutMs?: number;
  /** The worker module; tests of the pool's own mechanics pass a double with a known cost. */
  readonly workerUrl?: URL;
}

interface Job {
  readonly id: number;
  readonly bytes: Uint8Array<ArrayBuffer>;
  resolve(result: SealVerdict): void;
  reject(error: unknown): void;
}

interface Slot {
  worker: Worker;
  job: Job | null;
  timer: NodeJS.Timeout | null;
  /** The worker said it has loaded: a job's time runs from then, not from the thread's start. */
  ready: boolean;
}

const WORKER_URL = new URL("./seal-verify-worker.ts", import.meta.url);

/**
 * A fixed pool of worker threads running core's verifySealSvg, with a bounded queue. An upload
 * that finds every worker busy and the queue full is refused at once (503 VERIFY_BUSY, the route
 * adds Retry-After) instead of waiting, so hostile uploads cannot queue without bound. The event
 * loop only hands the upload's buffer over (transferred, not copied); decoding, parsing and
 * rasterising happen in the worker, so health checks and consumes keep their latency. Workers
 * start on first use; a worker that overruns `timeoutMs` is terminated and replaced.
 */
export function createSealVerifyPool(options: SealVerifyPoolOptions): SealVerifier {
  const size = Math.max(1, options.workers ?? containerCpuLimit() - 1);
  const queueMax = options.queueMax ?? 16;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const keys = options.trustedKeys.map((key) => ({ ...key }));
  const slots: Slot[] = [];
  const queue: Job[] = [];
  let nextId = 0;
  let closed = false;

  const spawn = (): Slot => {
    const worker = new Worker(options.workerUrl ?? WORKER_URL, { workerData: keys });
    const slot: Slot = { worker, job: null, timer: null, ready: false };
    slot.worker.unref();
    slot.worker.on("message", (message: { ready: true } | { id: number; result: SealVerdict }) => {
      if ("ready" in message) {
        slot.ready = true;
        if (slot.job !== null) startTimer(slot);
        return;
      }
      const job = slot.job;
      if (job === null || job.id !== message.id) return;
      finish(slot);
      job.resolve(message.result);
    });
    slot.worker.on("error", (error) => fail(slot, error));
    slot.worker.on("exit", () => fail(slot, new Error("seal verification worker exited")));
    return slot;
  };

  const startTimer = (slot: Slot): void => {
    slot.timer = setTimeout(
      () =>
        fail(
          slot,
          new EntitlementError("SVG_UNREADABLE", `field file: verification took more than ${timeoutMs} ms`),
        ),
      timeoutMs,
    );
  };

  const finish = (slot: Slot): void => {
    if (slot.timer !== null) clearTimeout(slot.timer);
    slot.timer = null;
    slot.job = null;
    pump();
  };

  // the worker died or was terminated: its job fails, a fresh worker takes its place
  const fail = (slot: Slot, error: unknown): void => {
    const job = slot.job;
    if (slot.timer !== null) clearTimeout(slot.timer);
    slot.timer = null;
    slot.job = null;
    const index = slots.indexOf(slot);
    if (index >= 0) slots.splice(index, 1);
    void slot.worker.terminate();
    job?.reject(error);
    if (!closed) pump();
  };

  const pump = (): void => {
    while (queue.length > 0 && !closed) {
      let slot = slots.find((candidate) => candidate.job === null);
      if (slot === undefined && slots.length < size) {
        slot = spawn();
        slots.push(slot);
      }
      if (slot === undefined) return;
      const job = queue.shift() as Job;
      const running = slot;
      running.job = job;
      if (running.ready) startTimer(running);
      // transferred, not copied: the upload's buffer is the worker's from now on
      running.worker.postMessage({ id: job.id, bytes: job.bytes }, [job.bytes.buffer]);
    }
  };

  return {
    verify(upload) {
      if (closed) return Promise.reject(new EntitlementError("SHUTTING_DOWN"));
      // core refuses an upload over its byte cap from its size alone (its bytes were never kept),
      // in O(1): answered here, with core's own verdict, without a worker
      const oversize = refuseOversizeSeal(upload.byteLength);
      if (oversize !== null) {
        const { signature: _signature, ...result } = oversize;
        return Promise.resolve(result);
      }
      const bytes = upload.take();
      if (bytes === null) return Promise.reject(new Error("this upload's bytes were already handed over"));
      const busy = slots.length >= size && slots.every((slot) => slot.job !== null);
      if (busy && queue.length >= queueMax)
        return Promise.reject(
          new EntitlementError(
            "VERIFY_BUSY",
            `all ${size} verification workers are busy and ${queueMax} uploads are waiting; retry shortly`,
          ),
        );
      return new Promise<SealVerdict>((resolve, reject) => {
        queue.push({ id: nextId++, bytes, resolve, reject });
        pump();
      });
    },
    async close() {
      closed = true;
      for (const job of queue.splice(0)) job.reject(new EntitlementError("SHUTTING_DOWN"));
      await Promise.all(slots.splice(0).map((slot) => slot.worker.terminate()));
    },
  };
}
