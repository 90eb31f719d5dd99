// Load generator for the seal benchmarks (seal-verify, entitlement-hostile-uploads): `clients`
// connections upload one SVG file to POST /api/seal/verify back to back for `seconds`, then print
// the answers' statuses as one JSON line. It runs in its own process so that the benchmark's probe
// (health, consume) does not share an event loop with 8 MiB of uploads in flight: the probe then
// measures the service, not its own client.
// Usage: node bench/seal-verify-flood.ts <service-url> <file.svg> <clients> <seconds>
import { readFileSync } from "node:fs";
import http from "node:http";

const [url, file, clients, seconds] = process.argv.slice(2);
if (!url || !file || !clients || !seconds)
  throw new Error("usage: <service-url> <file.svg> <clients> <seconds>");
const body = readFileSync(file);
const agent = new http.Agent({ keepAlive: true, maxSockets: Number(clients) });
const end = performance.now() + Number(seconds) * 1000;
const statuses: Record<string, number> = {};

const upload = () =>
  new Promise<number>((resolve, reject) => {
    const request = http.request(
      `${url}/api/seal/verify`,
      {
        method: "POST",
        agent,
        headers: { "content-type": "image/svg+xml", "content-length": body.length },
      },
      (response) => {
        response.resume();
        response.once("end", () => resolve(response.statusCode ?? 0));
      },
    );
    request.once("error", reject);
    request.end(body);
  });

await Promise.all(
  Array.from({ length: Number(clients) }, async () => {
    while (performance.now() < end) {
      const status = await upload();
      statuses[status] = (statuses[status] ?? 0) + 1;
      // a full verification queue says when to come back; a client that honours it waits a little
      if (status === 503) await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }),
);
agent.destroy();
console.log(JSON.stringify({ statuses }));
