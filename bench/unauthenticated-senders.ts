// Load generator for bench/entitlement-unauthenticated-bodies.bench.ts (issue 38 item 4): `clients`
// connections each POST a 16 MiB body to run_complete with no token, as fast as the connection
// takes it, for `seconds`; when the service answers or closes, the client opens a new connection
// and starts over. Prints one JSON line: answers by status, and the body bytes handed to sockets.
// Usage: node bench/unauthenticated-senders.ts <service-url> <clients> <seconds>
import { connect } from "node:net";

const [url, clients, seconds] = process.argv.slice(2);
if (!url || !clients || !seconds) throw new Error("usage: <service-url> <clients> <seconds>");
const { hostname, port } = new URL(url);
const BODY_BYTES = 16 * 1024 * 1024;
const chunk = Buffer.alloc(64 * 1024, 0x20);
const head =
  "POST /api/entitlement/run_complete HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\n" +
  `Content-Length: ${BODY_BYTES}\r\n\r\n`;
const end = performance.now() + Number(seconds) * 1000;
const statuses: Record<string, number> = {};
let sentBytes = 0;
let attempts = 0;

/** One attempt: resolves when the connection closes. */
function attempt(): Promise<void> {
  attempts++;
  return new Promise((resolve) => {
    let sent = 0;
    let answered = false;
    const socket = connect(Number(port), hostname, () => {
      socket.write(head);
      const pump = () => {
        while (sent < BODY_BYTES && socket.writable && performance.now() < end) {
          sent += chunk.length;
          sentBytes += chunk.length;
          if (!socket.write(chunk)) return void socket.once("drain", pump);
        }
        if (performance.now() >= end) socket.destroy();
      };
      pump();
    });
    socket.on("data", (data: Buffer) => {
      if (answered) return;
      answered = true;
      const status = /^HTTP\/1\.1 (\d{3})/.exec(data.toString("latin1"))?.[1] ?? "other";
      statuses[status] = (statuses[status] ?? 0) + 1;
    });
    socket.on("error", () => {});
    socket.on("close", () => {
      if (!answered) statuses["closed unanswered"] = (statuses["closed unanswered"] ?? 0) + 1;
      resolve();
    });
  });
}

await Promise.all(
  Array.from({ length: Number(clients) }, async () => {
    while (performance.now() < end) await attempt();
  }),
);
console.log(JSON.stringify({ attempts, statuses, sentBytes }));
