import { EntitlementError } from "../errors/entitlement-error.ts";

/** How long one upload may take in all, and how long it may send nothing (issue 23 item 11). */
export interface UploadTimeouts {
  readonly idleMs: number;
  readonly totalMs: number;
}

/**
 * The defaults: a genuine seal (~30 KB) arrives in well under a second, and the 1 MiB maximum at
 * the upload budget's 8 MiB/s shared by a flood of uploaders in seconds; 10 s of silence or 60 s in
 * all is a client that is not sending a seal.
 */
export const UPLOAD_TIMEOUTS: UploadTimeouts = { idleMs: 10_000, totalMs: 60_000 };

/**
 * The time bounds of one upload's body. A client sending one byte every few seconds holds a
 * connection, a request and its buffer for as long as it likes unless someone stops it (issue 23
 * item 11: 20 such connections were still open after 320 s; Fastify turns Node's requestTimeout
 * off). The idle timer runs only while the service waits for the client: while the upload budget
 * holds the reader (`hold`), the silence is ours, not the client's. On expiry `onTimeout` gets a
 * REQUEST_TIMEOUT error (408), once.
 */
export class UploadClock {
  readonly #timeouts: UploadTimeouts;
  readonly #onTimeout: (error: EntitlementError) => void;
  readonly #total: NodeJS.Timeout;
  #idle: NodeJS.Timeout | null = null;
  #done = false;

  constructor(timeouts: UploadTimeouts, onTimeout: (error: EntitlementError) => void) {
    this.#timeouts = timeouts;
    this.#onTimeout = onTimeout;
    this.#total = setTimeout(
      () => this.#expire(`the upload was not received within ${timeouts.totalMs} ms`),
      timeouts.totalMs,
    );
    this.#armIdle();
  }

  /** Bytes arrived: the client is not idle. */
  received(): void {
    if (this.#idle !== null) this.#idle.refresh();
  }

  /** The service stops reading (upload budget in debt): the wait does not count as idle. */
  hold(): void {
    if (this.#idle !== null) clearTimeout(this.#idle);
    this.#idle = null;
  }

  /** Reading goes on after `hold`. */
  release(): void {
    if (!this.#done && this.#idle === null) this.#armIdle();
  }

  stop(): void {
    this.#done = true;
    clearTimeout(this.#total);
    this.hold();
  }

  #armIdle(): void {
    this.#idle = setTimeout(
      () => this.#expire(`the upload sent nothing for ${this.#timeouts.idleMs} ms`),
      this.#timeouts.idleMs,
    );
  }

  #expire(message: string): void {
    if (this.#done) return;
    this.stop();
    this.#onTimeout(new EntitlementError("REQUEST_TIMEOUT", message));
  }
}
