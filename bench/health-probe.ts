// Latency probe for the seal benchmarks: GET <service-url>/api/health one request at a time,
// `pauseMs` apart, for `seconds`, over one keep-alive connection; prints the samples' p50/p99/max
// and count as one JSON line. It runs in its own small process: the benchmark's own heap (the
// forgery corpus, hundreds of offline verifications) collects garbage on its own schedule, and a
// pause there would be counted as the service's latency.
// Usage: node bench/health-probe.ts <service-url> <seconds> <pauseMs>
import http from "node:http";

const [url, seconds, pauseMs] = process.argv.slice(2);
if (!url || !seconds || !pauseMs) throw new Error("usage: <service-url> <seconds> <pauseMs>");
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

const probe = () =>
  new Promise<void>((resolve, reject) => {
    const request = http.get(`${url}/api/health`, { agent }, (response) => {
      response.resume();
      response.once("end", () =>
        response.statusCode === 200 ? resolve() : reject(new Error(`health answered ${response.statusCode}`)),
      );
    });
    request.once("error", reject);
  });

const pause = () => new Promise((resolve) => setTimeout(resolve, Number(pauseMs)));
for (let i = 0; i < 20; i++) await probe(); // warm the connection and the code paths
const samples: number[] = [];
const end = performance.now() + Number(seconds) * 1000;
while (performance.now() < end) {
  const t0 = performance.now();
  await probe();
  samples.push(performance.now() - t0);
  await pause();
}
agent.destroy();
samples.sort((a, b) => a - b);
const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] ?? 0;
console.log(JSON.stringify({ probes: samples.length, p50: at(0.5), p99: at(0.99), max: at(1) }));
