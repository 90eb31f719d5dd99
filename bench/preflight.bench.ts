// Preflight benchmark (issue 5 "Performance"): in one run, beside its anchor,
//   1. download of a 1 GiB output file through /api/outputs/download vs the same file from nginx
//      (Debian package; this bench starts its own nginx with a temp config on loopback);
//   2. /api/outputs/repro-pack.tgz of a 200 MiB pack vs `tar czf -` (GNU tar + gzip, level 6, the same level).
// The client is curl for both servers. The service runs as the real `svc-preflight` bin in its own
// process; its resident memory is sampled during each transfer to show it stays flat.
// Goals: download >= 80% of nginx, tgz >= 80% of tar czf, peak RSS growth far below the bytes moved.
import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { chmod, mkdir, mkdtemp, open, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const BIN = join(here, "..", "packages", "preflight", "bin", "svc-preflight.ts");
const TOKEN = "bench-token-0123456789abcdef";
const RUN = "run_bench";
const MiB = 1024 * 1024;
const DOWNLOAD_BYTES = 1024 * MiB;
const PACK_BYTES = 200 * MiB;
const ROUNDS = 3;

function findNginx(): string | null {
  for (const path of ["/usr/sbin/nginx", "/usr/bin/nginx"]) if (existsSync(path)) return path;
  // The bench may install the Debian package itself when it runs as root (issue 5: nginx from Debian).
  if (process.getuid?.() === 0 && existsSync("/usr/bin/apt-get")) {
    console.log("installing nginx from Debian (apt-get install -y nginx) ...");
    spawnSync("apt-get", ["install", "-y", "-qq", "nginx"], {
      stdio: "ignore",
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
    if (existsSync("/usr/sbin/nginx")) return "/usr/sbin/nginx";
  }
  return null;
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function writeBigFile(path: string, bytes: number): Promise<void> {
  const chunk = randomBytes(MiB);
  const handle = await open(path, "w");
  for (let written = 0; written < bytes; written += MiB)
    await handle.write(chunk, 0, Math.min(MiB, bytes - written));
  await handle.close();
}

// Semi-compressible files (half random base64, half repeated JSON-ish text) so gzip does real work.
async function writePack(root: string, bytes: number): Promise<void> {
  const fileSize = 4 * MiB;
  const text = Buffer.from(
    '{"module_id":"computational","status":"ok","value":0.12345,"evidence":"EID-000"}\n'.repeat(30_000),
  );
  for (let index = 0; index * fileSize < bytes; index++) {
    const dir = join(root, "repro_pack", `part-${String(index % 10).padStart(2, "0")}`);
    await mkdir(dir, { recursive: true });
    const random = Buffer.from(randomBytes(fileSize / 2).toString("base64")).subarray(0, fileSize / 2);
    await writeFile(
      join(dir, `file-${String(index).padStart(4, "0")}.json`),
      Buffer.concat([random, text.subarray(0, fileSize / 2)]),
    );
  }
}

function rssKiB(pid: number): number {
  const match = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return Number(match?.[1] ?? 0);
}

/** Runs a command to completion while sampling `pid`'s RSS; returns seconds and the peak RSS in MiB. */
async function timed(
  command: string,
  args: string[],
  pid?: number,
): Promise<{ seconds: number; peakMiB: number }> {
  let peak = pid ? rssKiB(pid) : 0;
  const sampler = pid ? setInterval(() => (peak = Math.max(peak, rssKiB(pid))), 25) : undefined;
  const started = process.hrtime.bigint();
  await new Promise<void>((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "ignore", "inherit"] });
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${command} exited ${code}`))));
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (sampler) clearInterval(sampler);
  return { seconds, peakMiB: peak / 1024 };
}

async function best(runs: () => Promise<{ seconds: number; peakMiB: number }>) {
  let fastest = Number.POSITIVE_INFINITY;
  let peak = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const result = await runs();
    fastest = Math.min(fastest, result.seconds);
    peak = Math.max(peak, result.peakMiB);
  }
  return { seconds: fastest, peakMiB: peak };
}

async function startPreflight(outputRoot: string): Promise<{ child: ChildProcess; url: string }> {
  const home = await mkdtemp(join(tmpdir(), "bench-home-"));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    PORT: "0",
    HOST: "127.0.0.1",
    LOG_LEVEL: "warn",
  };
  Object.assign(env, { SVC_OUTPUT_ROOT: outputRoot, SVC_API_TOKEN: TOKEN });
  const child = spawn(process.execPath, [BIN], {
    env: { ...env, LOG_LEVEL: "info" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /Server listening at (http:\/\/[\d.]+:\d+)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    child.on("exit", (code) => reject(new Error(`svc-preflight exited ${code}`)));
  });
  child.stdout?.resume();
  return { child, url };
}

async function startNginx(
  nginx: string,
  root: string,
  work: string,
): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const conf = join(work, "nginx.conf");
  await writeFile(
    conf,
    `worker_processes 1;
daemon off;
pid ${work}/nginx.pid;
error_log ${work}/error.log warn;
events { worker_connections 64; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  client_body_temp_path ${work}/client;
  proxy_temp_path ${work}/proxy;
  fastcgi_temp_path ${work}/fastcgi;
  uwsgi_temp_path ${work}/uwsgi;
  scgi_temp_path ${work}/scgi;
  default_type application/octet-stream;
  server { listen 127.0.0.1:${port}; root ${root}; }
}
`,
  );
  const child = spawn(nginx, ["-c", conf, "-p", work, "-e", `${work}/error.log`], { stdio: "inherit" });
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 100; attempt++) {
    const ok = await fetch(`${url}/`).then(
      () => true,
      () => false,
    );
    if (ok) return { child, url };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("nginx did not start");
}

const curl = (url: string, auth = false) => [
  "--silent",
  "--fail",
  "--output",
  "/dev/null",
  ...(auth ? ["--header", `Authorization: Bearer ${TOKEN}`] : []),
  url,
];

const work = await mkdtemp(join(tmpdir(), "bench-preflight-"));
const outputRoot = join(work, "output");
const runRoot = join(outputRoot, RUN);
try {
  // nginx workers run unprivileged: the temp tree must be readable to them.
  await chmod(work, 0o755);
  await mkdir(runRoot, { recursive: true });
  console.log(
    `preparing ${DOWNLOAD_BYTES / MiB} MiB file and a ${PACK_BYTES / MiB} MiB repro pack in ${work} ...`,
  );
  await writeBigFile(join(runRoot, "big.bin"), DOWNLOAD_BYTES);
  await writePack(runRoot, PACK_BYTES);

  const preflight = await startPreflight(outputRoot);
  const pid = preflight.child.pid ?? 0;
  const idleMiB = rssKiB(pid) / 1024;
  const nginxPath = findNginx();
  const nginx = nginxPath ? await startNginx(nginxPath, outputRoot, work) : null;
  try {
    const gib = DOWNLOAD_BYTES / 1024 / MiB;
    // Rounds alternate between the service and its anchor so background load hits both alike.
    const ourUrl = `${preflight.url}/api/outputs/download?runId=${RUN}&path=big.bin`;
    let ours = { seconds: Number.POSITIVE_INFINITY, peakMiB: 0 };
    let anchor = { seconds: Number.POSITIVE_INFINITY, peakMiB: 0 };
    for (let round = 0; round < ROUNDS + 2; round++) {
      const mine = await timed("curl", curl(ourUrl, true), pid);
      ours = { seconds: Math.min(ours.seconds, mine.seconds), peakMiB: Math.max(ours.peakMiB, mine.peakMiB) };
      if (nginx) {
        const theirs = await timed("curl", curl(`${nginx.url}/${RUN}/big.bin`));
        anchor = { seconds: Math.min(anchor.seconds, theirs.seconds), peakMiB: 0 };
      }
    }
    console.log(
      `download 1 GiB   preflight ${(gib / ours.seconds).toFixed(2)} GiB/s (${ours.seconds.toFixed(2)} s)`,
    );
    if (nginx) {
      console.log(
        `download 1 GiB   nginx     ${(gib / anchor.seconds).toFixed(2)} GiB/s (${anchor.seconds.toFixed(2)} s)`,
      );
      console.log(
        `download ratio   preflight/nginx = ${(anchor.seconds / ours.seconds).toFixed(2)} (goal >= 0.80)`,
      );
    } else {
      console.log("download anchor  nginx not found (apt-get install -y nginx); ratio not measured");
    }
    console.log(
      `download memory  idle RSS ${idleMiB.toFixed(0)} MiB, peak RSS ${ours.peakMiB.toFixed(0)} MiB for 1024 MiB sent`,
    );

    const pack = await best(() =>
      timed("curl", curl(`${preflight.url}/api/outputs/repro-pack.tgz?runId=${RUN}`, true), pid),
    );
    const tar = await best(() => timed("bash", ["-c", `tar czf - -C '${runRoot}' repro_pack > /dev/null`]));
    const packMiB = PACK_BYTES / MiB;
    console.log(
      `repro-pack.tgz   preflight ${(packMiB / pack.seconds).toFixed(0)} MiB/s (${pack.seconds.toFixed(2)} s)`,
    );
    console.log(
      `tar czf -        GNU tar   ${(packMiB / tar.seconds).toFixed(0)} MiB/s (${tar.seconds.toFixed(2)} s)`,
    );
    console.log(`tgz ratio        preflight/tar = ${(tar.seconds / pack.seconds).toFixed(2)} (goal >= 0.80)`);
    console.log(`tgz memory       peak RSS ${pack.peakMiB.toFixed(0)} MiB for a ${packMiB} MiB pack`);
    const gzipVersion = execFileSync("gzip", ["--version"], { encoding: "utf8" }).split("\n")[0];
    console.log(`(anchor: ${gzipVersion}, default level 6; preflight: node zlib level 6)`);
  } finally {
    preflight.child.kill("SIGTERM");
    nginx?.child.kill("SIGTERM");
  }
} finally {
  await rm(work, { recursive: true, force: true });
}
