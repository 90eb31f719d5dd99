import type { RunMode } from "@svc/core";

/**
 * What a store did, told after its transaction committed, so metrics count each event once
 * (issue 16 item 5: /metrics counted consume replays as consumes, and seals issued raced).
 * `replayed` marks an idempotent retry answered from what was stored.
 */
export type LedgerEvent =
  | {
      readonly kind: "consume";
      readonly mode: RunMode;
      readonly funding: "purchased" | "rerun";
      readonly replayed: boolean;
    }
  | { readonly kind: "grant"; readonly mode: RunMode; readonly runs: number; readonly replayed: boolean }
  | { readonly kind: "redemption"; readonly mode: RunMode }
  | { readonly kind: "seal_issued"; readonly mode: RunMode; readonly replayed: boolean };

export type LedgerEventListener = (event: LedgerEvent) => void;

/** The listeners of one store; a listener that throws never fails the ledger operation. */
export class LedgerEventHub {
  readonly #listeners: LedgerEventListener[] = [];

  subscribe(listener: LedgerEventListener): void {
    this.#listeners.push(listener);
  }

  emit(event: LedgerEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch {
        // metrics are an observer: the committed operation stands
      }
    }
  }
}
