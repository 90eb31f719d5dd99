// The entitlement service's own work while seal uploads attack it (issue 9 item 7, service side):
// consume and /api/health p50/p99 while 8 clients upload 1 MiB hostile seals back to back (a
// genuine seal this service issued plus ~64k dark 1x1 subpaths over the QR area), each beside its
// anchor: the same call on the idle service, as a ratio (goal: about 1; health p99 < 10 ms).
// Uploads are verified in worker threads, so the ratios show what the event loop still pays. The
// uploaders run in their own process (seal-verify-flood.ts), so the probes' own event loop is idle;
// each line carries the machine's load averages (1/5/15 min) when it was printed. Last, one client
// uploads the genuine seal back to back while 64 clients flood the hostile one (issue 23 item 11):
// its answers by status and state, and its p50/p99.
// bench/seal-verify.bench.ts measures the verifier itself (offline, online, hostile corpus).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadOrCreateDevIssuerKey, mintDevToken } from "@svc/entitlement";
import { serviceUrl } from "./service-url.ts";

const BIN = fileURLToPath(new URL("../packages/entitlement/bin/svc-entitlement.ts", import.meta.url));
const FLOOD = fileURLToPath(new URL("./seal-verify-flood.ts", import.meta.url));
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const HOSTILE_CLIENTS = 8;
// issue 23 item 11: genuine seals must keep being answered while 64 clients flood the verifier
const FLOOD_CLIENTS = 64;
const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });

interface Figures {
  readonly count: number;
  readonly p50: number;
  readonly p99: number;
}

function figures(latencies: number[]): Figures {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { count: sorted.length, p50: at(0.5), p99: at(0.99) };
}

/** One request; resolves with status and body once the whole answer is read. */
function send(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, agent, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.once("end", () =>
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }),
      );
      response.once("error", reject);
    });
    request.once("error", reject);
    request.end(body);
  });
}

const json = (token?: string) => ({
  "content-type": "application/json",
  ...(token ? { authorization: `Bearer ${token}` } : {}),
});

/** Loops `work` for `seconds` and returns its latencies (ms). */
async function loop(seconds: number, work: () => Promise<void>): Promise<number[]> {
  const latencies: number[] = [];
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    const t0 = performance.now();
    await work();
    latencies.push(performance.now() - t0);
  }
  return latencies;
}

const ms = (value: number) => `${value.toFixed(2)} ms`;
const line = (label: string, measured: Figures, anchorLabel: string, anchor: number) =>
  console.log(
    `${label.padEnd(34)} n=${String(measured.count).padStart(5)} p50 ${ms(measured.p50).padStart(10)} p99 ${ms(measured.p99).padStart(10)}` +
      `  |  ${anchorLabel} ${ms(anchor).padStart(10)}  |  ratio ${(measured.p99 / anchor).toFixed(2)}` +
      `  (load ${loadavg()
        .map((value) => value.toFixed(1))
        .join("/")})`,
  );

const work = mkdtempSync(join(tmpdir(), "svc-seal-verify-bench-"));
const child = spawn(process.execPath, [BIN], {
  env: { ...process.env, PORT: "0", HOST: "127.0.0.1", SVC_LOG_LEVEL: "warn", SVC_DATA_DIR: work },
  stdio: ["ignore", "pipe", "inherit"],
});
try {
  const url = await serviceUrl(child);
  const admin = { ...json(), "x-svc-admin-token": readFileSync(join(work, "admin-token"), "utf8").trim() };
  const token = await mintDevToken({
    key: await loadOrCreateDevIssuerKey(work),
    issuer: `${url}/dev-issuer`,
    audience: url,
    principal: "bench@example.com",
  });
  await send(
    `${url}/api/entitlement/issue`,
    "POST",
    admin,
    JSON.stringify({ principal: "bench@example.com", runs: 100_000 }),
  );
  // one genuine seal, issued by this service
  const run = { run_id: "run_bench_seal", project_id: "bench" };
  await send(`${url}/api/entitlement/consume`, "POST", json(token), JSON.stringify(run));
  await send(
    `${url}/api/entitlement/run_start`,
    "POST",
    json(token),
    JSON.stringify({
      ...run,
      category_id: "ligand_only",
      inputs_sha256: "a".repeat(64),
      image: { reference: "registry/runner:1.0.0", digest: null },
    }),
  );
  const completed = await send(
    `${url}/api/entitlement/run_complete`,
    "POST",
    json(token),
    JSON.stringify({
      run_id: run.run_id,
      outputs_sha256: "b".repeat(64),
      run_manifest_sha256: "c".repeat(64),
    }),
  );
  const genuine = (JSON.parse(completed.body) as { seal: { seal_svg: string } }).seal.seal_svg;
  let subpaths = "";
  for (let index = 0; subpaths.length < 1024 * 1024 - genuine.length - 64; index++)
    subpaths += `M${180 + (index % 120)} ${180 + (Math.floor(index / 120) % 120)}h1v1h-1z`;
  const hostile = genuine.replace("</svg>", `<path fill="#000" d="${subpaths}"/></svg>`);

  let sequence = 0;
  const health = async () => void (await send(`${url}/api/health`, "GET", {}));
  const consume = async () =>
    void (await send(
      `${url}/api/entitlement/consume`,
      "POST",
      json(token),
      JSON.stringify({ run_id: `run_b_${sequence++}`, project_id: "bench" }),
    ));
  const [healthIdle, consumeIdle] = (await Promise.all([loop(SECONDS, health), loop(SECONDS, consume)])).map(
    figures,
  );

  // under load: 8 clients upload the hostile seal back to back, from their own process
  const hostileFile = join(work, "hostile.svg");
  writeFileSync(hostileFile, hostile);
  const uploader = spawn(
    process.execPath,
    [FLOOD, url, hostileFile, String(HOSTILE_CLIENTS), String(SECONDS + 1)],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  let uploaderOutput = "";
  uploader.stdout?.on("data", (chunk: Buffer) => (uploaderOutput += chunk.toString()));
  const uploaded = new Promise<Record<string, number>>((resolve, reject) =>
    uploader.once("exit", (code) =>
      code === 0
        ? resolve((JSON.parse(uploaderOutput) as { statuses: Record<string, number> }).statuses)
        : reject(new Error(`the uploader exited ${code}`)),
    ),
  );
  await new Promise((resolve) => setTimeout(resolve, 500));
  const [healthLoaded, consumeLoaded] = (
    await Promise.all([loop(SECONDS, health), loop(SECONDS, consume)])
  ).map(figures);
  const statuses = await uploaded;

  // genuine uploads (one client, back to back) while FLOOD_CLIENTS upload the hostile seal
  const flooder = spawn(
    process.execPath,
    [FLOOD, url, hostileFile, String(FLOOD_CLIENTS), String(SECONDS + 1)],
    {
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  const flooded = new Promise((resolve) => flooder.once("exit", resolve));
  await new Promise((resolve) => setTimeout(resolve, 500));
  const genuineStatuses: Record<string, number> = {};
  const genuineLatencies = await loop(SECONDS, async () => {
    const answer = await send(`${url}/api/seal/verify`, "POST", { "content-type": "image/svg+xml" }, genuine);
    const state = answer.status === 200 ? (JSON.parse(answer.body) as { state: string }).state : "";
    const key = `${answer.status}${state ? ` ${state}` : ""}`;
    genuineStatuses[key] = (genuineStatuses[key] ?? 0) + 1;
  });
  await flooded;

  line("/api/health idle", healthIdle as Figures, "goal p99", 10);
  line(
    `/api/health, ${HOSTILE_CLIENTS} hostile uploaders`,
    healthLoaded as Figures,
    "idle p99",
    (healthIdle as Figures).p99,
  );
  line(
    `consume, ${HOSTILE_CLIENTS} hostile uploaders`,
    consumeLoaded as Figures,
    "idle p99",
    (consumeIdle as Figures).p99,
  );
  console.log(
    `hostile 1 MiB uploads answered: ${Object.entries(statuses)
      .map(([status, count]) => `${count} x ${status}`)
      .join(", ")} (${hostile.length} bytes each)`,
  );
  const genuineFigures = figures(genuineLatencies);
  console.log(
    `genuine uploads, ${FLOOD_CLIENTS} hostile uploaders  n=${String(genuineFigures.count).padStart(5)} p50 ${ms(genuineFigures.p50).padStart(10)} p99 ${ms(genuineFigures.p99).padStart(10)}` +
      `  |  answered: ${Object.entries(genuineStatuses)
        .map(([status, count]) => `${count} x ${status}`)
        .join(", ")}  (load ${loadavg()
        .map((value) => value.toFixed(1))
        .join("/")})`,
  );
} finally {
  child.kill("SIGTERM");
  agent.destroy();
  await new Promise((resolve) => child.once("exit", resolve));
  rmSync(work, { recursive: true, force: true });
}
