// No unauthenticated byte is read (issue 38 item 4): /api/health p99 on the idle service, then
// while 8 clients send 16 MiB bodies to run_complete with no token, back to back, as a ratio to
// idle (goal: within 1.5x idle, printed as met or not met). Authentication runs on the headers, so
// each sender is answered 401 and its connection closed unread; before, every 16 MiB body was read
// and parsed as JSON before the token was looked at (health p50 2.1 ms -> 905 ms). The senders
// (unauthenticated-senders.ts) and the probe (health-probe.ts, one request at a time, 5 ms apart)
// run in processes of their own. Idle and loaded alternate over ROUNDS rounds, so a shared
// machine's drift moves both alike (as bench/entitlement.bench.ts does); the goal compares the
// median of the rounds' p99s. Each line carries the machine's load averages (1/5/15 min).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { serviceUrl } from "./service-url.ts";

const BIN = fileURLToPath(new URL("../packages/entitlement/bin/svc-entitlement.ts", import.meta.url));
const PROBE = fileURLToPath(new URL("./health-probe.ts", import.meta.url));
const SENDERS = fileURLToPath(new URL("./unauthenticated-senders.ts", import.meta.url));
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CLIENTS = 8;
const ROUNDS = 5;
// the senders' process starts and opens its connections before the probe starts
const WARM_UP_MS = 1_500;
const GOAL_RATIO = 1.5;

interface Probe {
  readonly probes: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

/** Runs a helper script to its end and parses the JSON line it prints. */
function runJson<T>(script: string, args: string[]): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: ["ignore", "pipe", "inherit"] });
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) =>
      code === 0 ? resolve(JSON.parse(output) as T) : reject(new Error(`${script} exited ${code}`)),
    );
  });
}

const ms = (value: number) => `${value.toFixed(2)} ms`.padStart(10);
const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join("/");
const line = (label: string, probe: Probe) =>
  console.log(
    `${label.padEnd(62)} n=${String(probe.probes).padStart(5)} p50 ${ms(probe.p50)} p99 ${ms(probe.p99)} max ${ms(probe.max)}  (load ${load()})`,
  );

const work = mkdtempSync(join(tmpdir(), "svc-unauthenticated-bench-"));
const child = spawn(process.execPath, [BIN], {
  env: { ...process.env, PORT: "0", HOST: "127.0.0.1", SVC_LOG_LEVEL: "warn", SVC_DATA_DIR: work },
  stdio: ["ignore", "pipe", "inherit"],
});
try {
  const url = await serviceUrl(child);
  const idle: Probe[] = [];
  const loaded: Probe[] = [];
  const sent = { attempts: 0, statuses: {} as Record<string, number>, sentBytes: 0 };
  for (let round = 1; round <= ROUNDS; round++) {
    idle.push(await runJson<Probe>(PROBE, [url, String(SECONDS), "5"]));
    line(`round ${round}: /api/health idle`, idle.at(-1) as Probe);
    const sending = runJson<{ attempts: number; statuses: Record<string, number>; sentBytes: number }>(
      SENDERS,
      [url, String(CLIENTS), String(SECONDS + (WARM_UP_MS + 500) / 1000)],
    );
    await new Promise((resolve) => setTimeout(resolve, WARM_UP_MS));
    loaded.push(await runJson<Probe>(PROBE, [url, String(SECONDS), "5"]));
    line(`round ${round}: /api/health, ${CLIENTS} unauthenticated 16 MiB senders`, loaded.at(-1) as Probe);
    const senders = await sending;
    sent.attempts += senders.attempts;
    sent.sentBytes += senders.sentBytes;
    for (const [status, count] of Object.entries(senders.statuses))
      sent.statuses[status] = (sent.statuses[status] ?? 0) + count;
  }
  const median = (probes: Probe[]) => {
    const sorted = probes.map((probe) => probe.p99).sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)] ?? 0;
  };
  const ratio = median(loaded) / median(idle);
  console.log(
    `median p99 idle ${ms(median(idle))}, loaded ${ms(median(loaded))}: ratio ${ratio.toFixed(2)}  |  goal within ${GOAL_RATIO}x idle: ${ratio <= GOAL_RATIO ? "met" : "not met"}`,
  );
  console.log(
    `senders: ${sent.attempts} attempts, answered ${Object.entries(sent.statuses)
      .map(([status, count]) => `${count} x ${status}`)
      .join(", ")}; ${(sent.sentBytes / 1024 / 1024).toFixed(0)} MiB handed to their sockets`,
  );
} finally {
  child.kill("SIGTERM");
  await new Promise((resolve) => child.once("exit", resolve));
  rmSync(work, { recursive: true, force: true });
}
