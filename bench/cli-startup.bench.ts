// `svc --help` and `svc --version` wall time (issue 28 item 3): each a fresh process, as a user
// runs it, beside its anchor `node -e 0` (the floor of any Node CLI), as a ratio. Goal: `svc --help`
// p50 < 300 ms; the command modules (Kubernetes client, undici, zod, @svc/core with its QR code
// libraries) load only when a command runs, so what remains is commander and the command tree.
// Printed with the machine's load averages: on a shared machine they say how much is the machine's.
import { spawnSync } from "node:child_process";
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";

const SVC = fileURLToPath(new URL("../packages/cli/bin/svc.ts", import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);

function timeProcess(args: string[]): { p50: number; max: number } {
  const samples: number[] = [];
  for (let i = 0; i < ROUNDS + 2; i++) {
    const t0 = performance.now();
    const run = spawnSync(process.execPath, args, { stdio: ["ignore", "ignore", "inherit"] });
    const elapsed = performance.now() - t0;
    if (run.status !== 0) throw new Error(`node ${args.join(" ")} exited ${run.status}`);
    if (i >= 2) samples.push(elapsed); // the first two warm the file cache
  }
  samples.sort((a, b) => a - b);
  return { p50: samples[Math.floor(samples.length / 2)] ?? 0, max: samples[samples.length - 1] ?? 0 };
}

const anchor = timeProcess(["-e", "0"]);
const fmt = (ms: number) => `${ms.toFixed(0)} ms`;
console.log(
  `load averages ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`,
);
console.log(`anchor node -e 0     p50 ${fmt(anchor.p50)}  max ${fmt(anchor.max)}`);
for (const args of [["--help"], ["--version"]]) {
  const result = timeProcess([SVC, ...args]);
  console.log(
    `svc ${args.join(" ").padEnd(16)} p50 ${fmt(result.p50)}  max ${fmt(result.max)}  ${(result.p50 / anchor.p50).toFixed(1)}x the anchor${args[0] === "--help" ? `  (goal < 300 ms: ${result.p50 < 300 ? "met" : "NOT met"})` : ""}`,
  );
}
