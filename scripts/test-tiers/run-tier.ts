// Runs one tier of the test suite (issue 41 item 4): `node scripts/test-tiers/run-tier.ts <tier>`,
// what `npm run test:fast`, `test:e2e` and `test:validation` call. The fast tier runs with
// forbid-processes.ts preloaded, so a fast test that starts a process fails. Prints the tier's wall
// time, the CPU time of its test processes and the load average, so a loaded machine shows.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import {
  type FileCosts,
  longestFirst,
  mergeFileCosts,
  readFileCosts,
  slowestLines,
  writeFileCosts,
} from "./file-costs.ts";
import { listTestFiles, TIERS, type Tier } from "./test-tiers.ts";

const REPO = resolve(import.meta.dirname, "../..");

/** CPU seconds of the children this process has waited for (/proc/self/stat cutime + cstime). */
function childrenCpuSeconds(): number {
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1]?.split(" ") ?? [];
  // After the command's ") ", field 3 (state) is index 0: cutime is field 16, cstime 17.
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

const tier = process.argv[2];
if (tier === "-h" || tier === "--help" || !TIERS.includes(tier as Tier)) {
  const out = tier === "-h" || tier === "--help" ? console.log : console.error;
  out(`Usage: node scripts/test-tiers/run-tier.ts <${TIERS.join("|")}>
  fast        in-process tests (*.test.ts), no child process allowed
  e2e         *.e2e.test.ts: tests that start processes, external tools or whole runner runs
  validation  *.validation.test.ts: science against native references, model-quality figures
e2e and validation start their files longest first (scripts/test-tiers/file-costs.json) and print the
slowest; UPDATE_TEST_COSTS=1 rewrites file-costs.json with this run's times.`);
  process.exit(tier === "-h" || tier === "--help" ? 0 : 2);
}
const COSTS = join(REPO, "scripts", "test-tiers", "file-costs.json");
const files =
  tier === "fast"
    ? listTestFiles(REPO, "fast")
    : longestFirst(listTestFiles(REPO, tier as Tier), readFileCosts(COSTS));
// The per-file times (file-times-reporter.ts) go to a folder of the run's own, removed at the end.
const timesDir = mkdtempSync(join(tmpdir(), "svc-test-times-"));
const timesFile = join(timesDir, "times.jsonl");
const started = performance.now();

/**
 * The fast tier's files share processes (`--test-isolation=none`): most of a fast file's cost was its
 * own process start-up and module loading (151 CPU-s for 196 files isolated, 34 in one process), so
 * it runs as FAST_SHARDS processes, each one shard of the files (`--test-shard`), side by side: tests
 * that wait on the network or a timer overlap, and the CPU is what the tests themselves use. Every
 * other tier keeps a process per file (two at a time): its files start services and tools.
 */
const FAST_SHARDS = 4;
const runs =
  tier === "fast"
    ? Array.from({ length: FAST_SHARDS }, (_, shard) => [
        "--import",
        "./scripts/test-tiers/forbid-processes.ts",
        "--test",
        "--test-isolation=none",
        `--test-shard=${shard + 1}/${FAST_SHARDS}`,
        ...files,
      ])
    : [
        [
          "--test",
          "--test-concurrency=2",
          "--test-reporter=spec",
          "--test-reporter-destination=stdout",
          "--test-reporter=./scripts/test-tiers/file-times-reporter.ts",
          `--test-reporter-destination=${timesFile}`,
          ...files,
        ],
      ];
const codes = await Promise.all(
  runs.map(
    (args) =>
      new Promise<number>((resolveCode) => {
        const child = spawn(process.execPath, args, { cwd: REPO, stdio: "inherit" });
        child.on("exit", (code, signal) => resolveCode(code ?? (signal === null ? 1 : 128)));
      }),
  ),
);
const wall = (performance.now() - started) / 1000;
const load = loadavg()
  .map((x) => x.toFixed(2))
  .join(" ");
console.log(
  `test:${tier} ${files.length} files: ${wall.toFixed(1)} s wall, ${childrenCpuSeconds().toFixed(1)} CPU-s, load average ${load}`,
);
if (tier !== "fast") reportFileTimes();
rmSync(timesDir, { recursive: true, force: true });
process.exit(codes.find((code) => code !== 0) ?? 0);

/** Prints the tier's slowest files and, with UPDATE_TEST_COSTS=1, records every file's time. */
function reportFileTimes(): void {
  if (!existsSync(timesFile)) return;
  const measured: Record<string, number> = {};
  for (const line of readFileSync(timesFile, "utf8").split("\n").filter(Boolean)) {
    const { file, seconds } = JSON.parse(line) as { file: string; seconds: number };
    // Events name the module that declared a test: a shared suite (e.g. a store contract) is not a file of the tier.
    if (files.includes(relative(REPO, file))) measured[relative(REPO, file)] = seconds;
  }
  console.log(`test:${tier} slowest files (wall, two at a time; started longest first):`);
  for (const line of slowestLines(measured, 10)) console.log(line);
  if (process.env.UPDATE_TEST_COSTS === "1") {
    const costs: FileCosts = mergeFileCosts(readFileCosts(COSTS), measured, (file) =>
      existsSync(join(REPO, file)),
    );
    writeFileCosts(COSTS, costs);
    console.log(`wrote ${relative(REPO, COSTS)} (${Object.keys(costs).length} files)`);
  }
}
