import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import type { UploadBudget } from "./upload-budget.ts";

/**
 * What the service reads and throws away after refusing a body it did not read to its end, before
 * it closes the connection (issue 23 item 13). nginx's lingering close (ngx_http_core_module,
 * `lingering_time` 30 s, `lingering_timeout` 5 s): a client still writing its body when the
 * answer comes (Node's fetch posting 8 MiB) fails its write on a reset connection and never reads
 * the 413 it was sent. Bounded, so a refused client cannot hold the connection or the CPU: at most
 * 16 MiB (each byte charged to the upload budget), 10 s in all, 2 s of silence.
 */
export const LINGER_LIMITS = { maxBytes: 16 * 1024 * 1024, totalMs: 10_000, idleMs: 2_000 } as const;

type LingerLimits = { readonly maxBytes: number; readonly totalMs: number; readonly idleMs: number };

/**
 * Makes the connection of `request` close once its answer is sent, after draining what the client
 * still sends within `limits` (charged to `budget`). Node's server ends a `Connection: close`
 * answer with `socket.destroySoon()` (`_http_server.js` resOnFinish), which resets a connection
 * whose unread bytes are still arriving; for this socket it instead half-closes (FIN: the client
 * reads the whole answer), reads the rest of the body into nothing, and destroys the socket when
 * the body ends or a bound is reached.
 */
export function lingerAfterAnswer(
  request: IncomingMessage,
  budget: UploadBudget,
  limits: LingerLimits = LINGER_LIMITS,
): void {
  const socket = request.socket as Socket & { destroySoon?: () => void };
  if (socket.destroyed) return;
  socket.destroySoon = () => {
    let seen = 0;
    const close = () => {
      clearTimeout(total);
      clearTimeout(idle);
      socket.destroy();
    };
    const total = setTimeout(close, limits.totalMs);
    const idle = setTimeout(close, limits.idleMs);
    let wait: NodeJS.Timeout | null = null;
    // a multipart body is still piped into busboy, which has given up on it
    request.unpipe();
    request.on("data", (chunk: Buffer) => {
      idle.refresh();
      seen += chunk.length;
      if (seen > limits.maxBytes) return close();
      const debt = budget.charge(chunk.length);
      if (debt > 0 && wait === null) {
        request.pause();
        wait = setTimeout(() => {
          wait = null;
          idle.refresh();
          request.resume();
        }, debt);
      }
    });
    request.once("end", close);
    request.once("error", close);
    socket.once("close", () => {
      clearTimeout(total);
      clearTimeout(idle);
      if (wait !== null) clearTimeout(wait);
    });
    socket.end();
    request.resume();
  };
}
