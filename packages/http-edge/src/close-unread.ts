import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";

/**
 * How long a connection answered before its body was read stays half-open, unread, so that the
 * client can read the answer before the connection is cut. Nothing is read meanwhile: it costs a
 * file descriptor and a timer, not the event loop.
 */
export const UNREAD_CLOSE_GRACE_MS = 2_000;

/**
 * True when `request` is answered while its body is still arriving and nobody has read a byte of
 * it: refused in an `onRequest` hook (no token, a bad one, a drain), before any parser ran.
 */
export function bodyPendingUnread(request: IncomingMessage): boolean {
  return !request.complete && !request.readableDidRead;
}

/**
 * Closes the connection of `request` once its answer is sent, without reading the body the client
 * is still sending (issue 38 item 4: no unauthenticated byte is read). Node would otherwise read
 * and discard the whole body to keep the connection alive (`_http_server.js` resOnFinish calls
 * `req._dump()`), and a `Connection: close` answer ends in `socket.destroySoon()`, which resets a
 * connection with unread bytes so that a client still writing (Node's fetch) fails with EPIPE and
 * never reads why. Here the answer is sent with `Connection: close`, the socket is half-closed
 * (FIN: the client reads the whole answer), held paused so the kernel stops taking the client's
 * bytes (TCP flow control stalls the sender), and destroyed after `graceMs`.
 */
export function closeUnread(request: IncomingMessage, graceMs: number = UNREAD_CLOSE_GRACE_MS): void {
  const socket = request.socket as Socket & { destroySoon?: () => void };
  if (socket.destroyed) return;
  socket.destroySoon = () => {
    // resOnFinish has just called req._dump(), whose resume reaches the socket on a later tick:
    // pause it again each time, in the same tick, before any read completes
    const hold = () => socket.pause();
    socket.on("resume", hold);
    socket.pause();
    const timer = setTimeout(() => socket.destroy(), graceMs);
    timer.unref();
    socket.once("close", () => clearTimeout(timer));
    socket.end();
  };
}
