// Runner benchmark, end to end (issue 10 item 4, issue 42 item 1): `svc-runner` audits NCI
// first_5K.smi (Debian rdkit-data) as a customer would — validation in the worker pool, the charge
// against the real entitlement service, analysis, every output, the seal — beside a native RDKit
// script (bench/native/runner_steps.py, python3-rdkit) doing the same per-compound steps: parse,
// largest fragment, canonical SMILES, InChI/InChIKey where its build has them, charges, the
// property set, a 2D SVG depiction, one JSON line per compound, then every science module's steps
// (bench/native/science_steps.py, shared with the science bench). Made so nothing can flatter it:
// - the same molecules on both sides;
// - native pinned to one thread (OPENBLAS_NUM_THREADS, OMP_NUM_THREADS, MKL_NUM_THREADS = 1: NumPy
//   otherwise spins a second thread whose CPU varies by machine);
// - per core: CPU per compound (whole processes, every thread) of svc-runner against one native
//   process; on all cores: wall time of svc-runner with one worker per core against native run as
//   N processes on N cores over the same molecules, split in N contiguous parts;
// - the machine's load average on every line (a loaded machine stretches wall time: read the CPU
//   lines then);
// - where svc-runner's CPU goes: per stage, from the `cpu_s` the runner logs at each stage boundary,
//   and per step and module of the per-compound path on one thread (bench/profile-modules.ts).
// Then the same portfolio repeated to 50k rows (NCI rows again with new ids: `<id>_<repeat>`) shows
// whether peak RSS stays flat.
// Goal on the 2-core machine (issue 42): svc-runner CPU per compound ≤ 0.67× native's (≥ 1.5× per
// core), wall ≥ 1.3× native on every core, RSS flat 5k → 50k.
// BENCH_RUNNER_ROWS=<rows> (default every NCI row) and BENCH_RUNNER_LARGE=<rows> (default 50000; 0
// skips it) change the runs. `--report-560k` (opt-in, hours on 2 cores): also audits 560,000 rows
// (NCI repeated) and checks the bound: results/report.html under 25 MB, and prints its peak
// RSS beside the 5k run's.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { METABOLISM_RULES } from "@svc/science/metabolism";
import { startTestEntitlement } from "../packages/runner/test/support/entitlement-harness.ts";
import { auditNci, NCI, nciRows } from "./runner-audit.ts";

const PYTHON = "/usr/bin/python3";
const SCIENCE_DATA = new URL("../packages/science/data/", import.meta.url).pathname;
const NATIVE_SCRIPT = new URL("./native/runner_steps.py", import.meta.url).pathname;
const PROFILE = new URL("./profile-modules.ts", import.meta.url).pathname;
const LARGE = Number(process.env.BENCH_RUNNER_LARGE ?? "50000");
const HUGE = process.argv.includes("--report-560k") ? 560_000 : 0;
const REPORT_MAX_BYTES = 25 * 1024 * 1024;
const CORES = availableParallelism();
/** BLAS and OpenMP pinned to one thread (issue 42 observed 2). */
const ONE_THREAD = { OPENBLAS_NUM_THREADS: "1", OMP_NUM_THREADS: "1", MKL_NUM_THREADS: "1" };

if (!existsSync(NCI) || spawnSync(PYTHON, ["-c", "import rdkit"], { stdio: "ignore" }).status !== 0) {
  console.log(`needs ${NCI} and native RDKit: sudo apt-get install -y rdkit-data python3-rdkit`);
  process.exit(1);
}
const nci = nciRows();
const ROWS = Math.min(nci.length, Number(process.env.BENCH_RUNNER_ROWS ?? nci.length));

/** A line with the machine's load average (1, 5, 15 min) and core count beside it. */
function say(text: string): void {
  const [one = 0, five = 0, fifteen = 0] = loadavg();
  console.log(
    `${text.padEnd(112)} [load ${one.toFixed(2)} ${five.toFixed(2)} ${fifteen.toFixed(2)}, ${CORES} cores]`,
  );
}

const ms = (seconds: number, rows: number) => ((seconds / rows) * 1000).toFixed(1);

const root = mkdtempSync(join(tmpdir(), "svc-bench-runner-"));
const service = await startTestEntitlement();
try {
  const principal = "bench@example.com";
  await service.grant(principal, 5);
  // The dev token is read once (SVC_DEV_TOKEN) and must outlast the longest audit: the 560k run
  // takes about 90 min, and a 1 h token made its run_complete fail with 401 AUTH_EXPIRED.
  const token = await service.tokenFor(principal, 12 * 3600);
  const audit = async (rows: number) => {
    const run = await auditNci({ root, service, token, rows, workers: CORES }, nci);
    const report = statSync(join(run.runDir, "results", "report.html")).size;
    rmSync(run.runDir, { recursive: true, force: true });
    return { ...run, report };
  };

  say(`${ROWS} NCI rows (${NCI}), the same molecules on both sides`);
  const small = await audit(ROWS);
  say(
    `svc-runner      ${small.seconds.toFixed(1)} s wall, ${small.cpu} s CPU = ${ms(small.cpu, ROWS)} ms per compound (${small.workers} workers; Chromium's PDF not counted), peak RSS ${small.rss} MiB`,
  );
  const single = await native(1);
  say(
    `native, 1 proc  ${single.seconds.toFixed(1)} s wall, ${single.cpu.toFixed(1)} s CPU = ${ms(single.cpu, ROWS)} ms per compound (one thread: BLAS/OpenMP pinned; RDKit ${single.version}${single.inchi ? "" : ", no InChI: fewer steps than svc-runner"})`,
  );
  const spread = await native(CORES);
  say(
    `native, ${CORES} procs ${spread.seconds.toFixed(1)} s wall, ${spread.cpu.toFixed(1)} s CPU = ${ms(spread.cpu, ROWS)} ms per compound (${CORES} one-thread processes on ${CORES} cores, the rows split in ${CORES})`,
  );
  const perCore = small.cpu / single.cpu;
  say(
    `per core        svc-runner CPU per compound = ${perCore.toFixed(2)}× native's (${(1 / perCore).toFixed(2)}× as fast; goal ≤ 0.67×, i.e. ≥ 1.5×)`,
  );
  say(
    `all cores       svc-runner wall = ${(spread.seconds / small.seconds).toFixed(2)}× as fast as native on ${CORES} cores (goal ≥ 1.3×; wall: read beside the load)`,
  );

  console.log("\nsvc-runner CPU per stage, from the cpu_s the runner logs at each stage boundary:");
  for (const { stage, seconds } of stageCpu(small.log))
    say(`  ${ms(seconds, ROWS).padStart(6)} ms per compound  ${stage}`);
  const rows = Math.min(1000, ROWS);
  console.log(`\nthe per-compound path, one thread, ${rows} rows (bench/profile-modules.ts):`);
  const profile = JSON.parse(
    execFileSync(process.execPath, [PROFILE, String(rows), "--json"], { encoding: "utf8" }),
  ) as { total: number; table: { step: string; ms: number }[] };
  for (const { step, ms: stepMs } of profile.table)
    say(`  ${stepMs.toFixed(2).padStart(6)} ms per compound  ${step}`);
  say(`  ${profile.total.toFixed(2).padStart(6)} ms per compound  total`);

  if (LARGE > 0) {
    const large = await audit(LARGE);
    say(
      `\nsvc-runner      ${LARGE} rows (NCI repeated with distinct ids): ${large.seconds.toFixed(1)} s wall, ${ms(large.cpu, LARGE)} ms CPU per compound, peak RSS ${large.rss} MiB`,
    );
    say(
      `memory          peak RSS ${LARGE} rows / ${ROWS} rows = ${(large.rss / small.rss).toFixed(2)} (${large.rss} / ${small.rss} MiB; flat = 1.0)`,
    );
  }

  if (HUGE > 0) {
    const huge = await audit(HUGE);
    const mb = (huge.report / 1024 / 1024).toFixed(1);
    say(
      `560k            ${HUGE} rows in ${(huge.seconds / 60).toFixed(1)} min; report.html ${mb} MB (${huge.report < REPORT_MAX_BYTES ? "under" : "OVER"} the 25 MB bound); peak RSS ${huge.rss} MiB = ${(huge.rss / small.rss).toFixed(2)} × the ${ROWS}-row run`,
    );
    if (huge.report >= REPORT_MAX_BYTES) process.exitCode = 1;
  }
} finally {
  await service.close();
  rmSync(root, { recursive: true, force: true });
}

/**
 * CPU seconds between the runner's logged stage boundaries (each line with `cpu_s`), named by the
 * line that ends the span; the last span ends at the run's final line.
 */
function stageCpu(log: string): { stage: string; seconds: number }[] {
  const marks = log
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { msg?: string; cpu_s?: number })
    .filter((entry) => typeof entry.cpu_s === "number");
  let before = 0;
  return marks.map((entry, at) => {
    const seconds = (entry.cpu_s as number) - before;
    before = entry.cpu_s as number;
    const from = at === 0 ? "start" : (marks[at - 1]?.msg ?? "?");
    return { stage: `${from} → ${entry.msg ?? "?"}`, seconds };
  });
}

/**
 * The native script as `processes` one-thread processes at once, each over a contiguous part of
 * the same rows: wall time until the last ends, CPU summed.
 */
async function native(
  processes: number,
): Promise<{ seconds: number; cpu: number; version: string; inchi: boolean }> {
  const reactions = join(root, "reactions.json");
  writeFileSync(reactions, JSON.stringify(METABOLISM_RULES.map((rule) => rule.reaction)));
  const lines = nci.slice(0, ROWS).map((row) => row.join(" "));
  const size = Math.ceil(lines.length / processes);
  const parts = Array.from({ length: processes }, (_, at) => {
    const input = join(root, `native-${processes}-${at}.smi`);
    writeFileSync(input, `${lines.slice(at * size, (at + 1) * size).join("\n")}\n`);
    return input;
  });
  const started = performance.now();
  const results = parts.map(
    (input) =>
      new Promise<{ version: string; inchi: boolean; cpu: number }>((resolve, reject) => {
        const child = spawn(PYTHON, [NATIVE_SCRIPT, input, `${input}.jsonl`, reactions, SCIENCE_DATA], {
          env: { ...process.env, ...ONE_THREAD },
          stdio: ["ignore", "pipe", "inherit"],
        });
        let out = "";
        child.stdout.on("data", (chunk) => {
          out += String(chunk);
        });
        child.on("error", reject);
        child.on("close", (code) =>
          code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`native script exited ${code}`)),
        );
      }),
  );
  const done = await Promise.all(results);
  const seconds = (performance.now() - started) / 1000;
  const first = done[0] as { version: string; inchi: boolean };
  return {
    seconds,
    cpu: done.reduce((sum, part) => sum + part.cpu, 0),
    version: first.version,
    inchi: first.inchi,
  };
}
