import type { HeapInfo } from "node:v8";
import { Worker } from "node:worker_threads";
import { cpuMsOfStatFile } from "@svc/science/structure";
import { WORKER_HEAP_LIMITS } from "../heap-limits.ts";
import type { PortfolioRow } from "../inputs/portfolio.ts";
import type {
  CompoundAnalysis,
  WarmUp,
  WorkerData,
  WorkerMessage,
  WorkerRequest,
} from "./compound-worker.ts";
import type { PortableCompound } from "./portable-compound.ts";

const WORKER_URL = new URL("./compound-worker.ts", import.meta.url);

/** What the pool made of one row: RDKit's preparation, or why RDKit could not assess it. */
export type PoolOutcome =
  | { readonly kind: "prepared"; readonly compound: PortableCompound }
  | { readonly kind: "unassessed"; readonly reason: string };

/** What the pool made of one prepared compound: the split modules' assessments, or why not. */
export type AnalyseOutcome =
  | { readonly kind: "analysed"; readonly analysis: CompoundAnalysis }
  | { readonly kind: "unassessed"; readonly reason: string };

type Unassessed = { readonly kind: "unassessed"; readonly reason: string };
type Reply = Extract<WorkerMessage, { kind: "prepared" | "analysed" }> | Unassessed;

export interface CompoundPoolOptions {
  /** Worker threads (each holds its own RDKit WebAssembly instance). */
  readonly size: number;
  /**
   * Per-molecule CPU-time budget of the worker thread (issue 37 item 3: on a loaded machine a
   * wall-clock budget failed compounds that were progressing); a worker over it is terminated and
   * replaced. Where the thread's CPU time cannot be read, the budget applies to the wall clock;
   * the wall clock is always capped at WALL_CEILING_FACTOR times it, for a thread that hangs.
   */
  readonly timeoutMs: number;
  /** Told about every replaced worker (the run goes on; the cause is logged). */
  readonly onReplace?: (reason: string) => void;
  /**
   * What the workers warm up before reporting ready: "prepare" (validation: parsing only) or
   * "analyse" (default: also every module, whose catalogs take ~1.5 s of CPU to compile).
   */
  readonly warmUp?: WarmUp;
}

interface Task {
  readonly id: number;
  readonly request: WorkerRequest;
  readonly resolve: (reply: Reply) => void;
}

interface Slot {
  readonly worker: Worker;
  /** The worker thread's kernel id, to read its CPU time; null: wall-clock budget only. */
  readonly tid: number | null;
  task: Task | null;
  timer: NodeJS.Timeout | null;
  /** Polls the thread's CPU time while a task runs. */
  poll: NodeJS.Timeout | null;
  /** Set once the worker is being replaced: its late messages and exit are ignored. */
  retired: boolean;
}

/**
 * RDKit work on `worker_threads` (issue 10 items 2 and 4): the preparation of each row
 * (validation) and the split modules' per-compound assessment (analysis). One task per worker at
 * a time, each under a time budget. A worker that faults (a wasm trap), dies or runs over the
 * budget is terminated and replaced, and only that compound becomes `unassessed` with the
 * reason: the run goes on. `prepare` and `analyse` never reject.
 */
export class CompoundPool {
  readonly rdkitVersion: string;
  readonly size: number;
  readonly #options: CompoundPoolOptions;
  readonly #slots: Slot[] = [];
  readonly #queue: Task[] = [];
  #nextId = 0;
  #closed = false;
  #broken: string | null = null;

  private constructor(options: CompoundPoolOptions, rdkitVersion: string) {
    this.#options = options;
    this.rdkitVersion = rdkitVersion;
    this.size = options.size;
  }

  /** Each worker's V8 heap statistics: the limit in force and the heap's size now. */
  heapStatistics(): Promise<HeapInfo[]> {
    return Promise.all(this.#slots.map((slot) => slot.worker.getHeapStatistics()));
  }

  /** Starts `size` workers and waits until each has loaded RDKit. */
  static async start(options: CompoundPoolOptions): Promise<CompoundPool> {
    if (!Number.isInteger(options.size) || options.size < 1) throw new Error("pool size must be ≥ 1");
    const warmUp = options.warmUp ?? "analyse";
    const workers = await Promise.all(Array.from({ length: options.size }, () => spawnWorker(warmUp)));
    const pool = new CompoundPool(options, workers[0]?.rdkitVersion ?? "unknown");
    for (const { worker, tid } of workers) pool.#adopt(worker, tid);
    return pool;
  }

  /** Prepares one row on the next free worker. */
  async prepare(row: PortfolioRow): Promise<PoolOutcome> {
    const reply = await this.#run((id) => ({ kind: "prepare", id, row }));
    if (reply.kind === "prepared") return { kind: "prepared", compound: reply.compound };
    return reply.kind === "unassessed"
      ? reply
      : { kind: "unassessed", reason: "the worker answered out of turn" };
  }

  /** Runs the split modules `moduleIds` (their `assess`) on one prepared compound on the next free worker. */
  async analyse(compound: PortableCompound, moduleIds: readonly string[]): Promise<AnalyseOutcome> {
    const reply = await this.#run((id) => ({ kind: "analyse", id, compound, modules: moduleIds }));
    if (reply.kind === "analysed") return { kind: "analysed", analysis: reply.analysis };
    return reply.kind === "unassessed"
      ? reply
      : { kind: "unassessed", reason: "the worker answered out of turn" };
  }

  #run(request: (id: number) => WorkerRequest): Promise<Reply> {
    if (this.#closed) return Promise.resolve({ kind: "unassessed", reason: "the worker pool is closed" });
    if (this.#broken !== null) return Promise.resolve({ kind: "unassessed", reason: this.#broken });
    return new Promise((resolve) => {
      const id = this.#nextId++;
      this.#queue.push({ id, request: request(id), resolve });
      this.#dispatch();
    });
  }

  /** Stops every worker; rows still queued or running become `unassessed`. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const task of this.#queue.splice(0))
      task.resolve({ kind: "unassessed", reason: "the run stopped before this row" });
    await Promise.all(
      this.#slots.map(async (slot) => {
        this.#settle(slot, { kind: "unassessed", reason: "the run stopped before this row" });
        await slot.worker.terminate();
      }),
    );
    this.#slots.length = 0;
  }

  #adopt(worker: Worker, tid: number | null): void {
    const slot: Slot = { worker, tid, task: null, timer: null, poll: null, retired: false };
    this.#slots.push(slot);
    this.#listen(slot);
    this.#dispatch();
  }

  #listen(slot: Slot): void {
    const { worker } = slot;
    worker.on("message", (message: WorkerMessage) => {
      if (slot.retired || slot.task === null) return;
      if ((message.kind === "prepared" || message.kind === "analysed") && message.id === slot.task.id) {
        this.#settle(slot, message);
        this.#dispatch();
      } else if (message.kind === "fault" && message.id === slot.task.id) {
        this.#replace(slot, `RDKit failed on this molecule (${message.message})`);
      }
    });
    worker.on("error", (error) => {
      if (!slot.retired) this.#replace(slot, `RDKit worker crashed (${error.message})`);
    });
    worker.on("exit", (code) => {
      if (!slot.retired && !this.#closed) this.#replace(slot, `RDKit worker exited with code ${code}`);
    });
  }

  #dispatch(): void {
    for (const slot of this.#slots) {
      if (slot.task !== null || this.#queue.length === 0 || this.#closed) continue;
      const task = this.#queue.shift() as Task;
      slot.task = task;
      const budget = this.#options.timeoutMs;
      const statFile = slot.tid === null ? null : `/proc/self/task/${slot.tid}/stat`;
      const cpuAtStart = statFile === null ? null : cpuMsOfStatFile(statFile);
      if (statFile !== null && cpuAtStart !== null) {
        slot.poll = setInterval(
          () => {
            const cpu = cpuMsOfStatFile(statFile);
            if (cpu !== null && cpu - cpuAtStart > budget)
              this.#replace(slot, `RDKit spent more than the per-molecule CPU budget of ${budget / 1000} s`);
          },
          Math.min(CPU_POLL_MS, budget),
        );
        slot.timer = setTimeout(() => {
          this.#replace(
            slot,
            `RDKit took longer than ${WALL_CEILING_FACTOR} times the per-molecule CPU budget of ${budget / 1000} s on the wall clock`,
          );
        }, budget * WALL_CEILING_FACTOR);
      } else
        slot.timer = setTimeout(() => {
          this.#replace(slot, `RDKit took longer than the per-molecule time budget of ${budget / 1000} s`);
        }, budget);
      slot.worker.postMessage(task.request);
    }
  }

  #settle(slot: Slot, outcome: Reply): void {
    if (slot.timer !== null) clearTimeout(slot.timer);
    if (slot.poll !== null) clearInterval(slot.poll);
    slot.timer = null;
    slot.poll = null;
    const task = slot.task;
    slot.task = null;
    task?.resolve(outcome);
  }

  // The faulty worker goes; its row is unassessed; a fresh worker takes the slot's place.
  #replace(slot: Slot, reason: string): void {
    if (this.#closed || slot.retired) return;
    slot.retired = true;
    const index = this.#slots.indexOf(slot);
    if (index >= 0) this.#slots.splice(index, 1);
    if (slot.task !== null) this.#settle(slot, { kind: "unassessed", reason });
    this.#options.onReplace?.(reason);
    void slot.worker.terminate();
    spawnWorker(this.#options.warmUp ?? "analyse").then(
      ({ worker, tid }) => {
        if (this.#closed) void worker.terminate();
        else this.#adopt(worker, tid);
      },
      (error: Error) => {
        // Without workers nothing can progress: fail the queued rows rather than hang.
        if (this.#slots.length > 0) return;
        this.#broken = `no RDKit worker could be started (${error.message})`;
        for (const task of this.#queue.splice(0)) task.resolve({ kind: "unassessed", reason: this.#broken });
      },
    );
  }
}

/** How often a running task's CPU time is read. */
const CPU_POLL_MS = 200;
/** A task is also stopped after this many times its CPU budget on the wall clock (a hung thread). */
const WALL_CEILING_FACTOR = 4;

function spawnWorker(warmUp: WarmUp): Promise<{ worker: Worker; rdkitVersion: string; tid: number | null }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_URL, {
      workerData: { warmUp } satisfies WorkerData,
      resourceLimits: WORKER_HEAP_LIMITS,
    });
    const fail = (error: Error) => reject(error);
    worker.once("error", fail);
    worker.once("exit", (code) => reject(new Error(`worker exited with code ${code} while starting`)));
    worker.once("message", (message: WorkerMessage) => {
      worker.off("error", fail);
      worker.removeAllListeners("exit");
      if (message.kind === "ready") resolve({ worker, rdkitVersion: message.rdkitVersion, tid: message.tid });
      else reject(new Error(`unexpected first message from a worker: ${message.kind}`));
    });
  });
}
