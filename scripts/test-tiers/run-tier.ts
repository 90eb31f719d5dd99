// Runs one tier of the test suite (issue 41 item 4): `node scripts/test-tiers/run-tier.ts <tier>`,
// what `npm run test:fast`, `test:e2e` and `test:validation` call. The fast tier runs with
// forbid-processes.ts preloaded, so a fast test that starts a process fails. Prints the tier's wall
// time, the CPU time of its test processes and the load average, so a loaded machine shows.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { resolve } from "node:path";
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
  validation  *.validation.test.ts: science against native references, model-quality figures`);
  process.exit(tier === "-h" || tier === "--help" ? 0 : 2);
}
const files = listTestFiles(REPO, tier as Tier);
const guard = tier === "fast" ? ["--import", "./scripts/test-tiers/forbid-processes.ts"] : [];
const started = performance.now();
const child = spawn(process.execPath, [...guard, "--test", "--test-concurrency=2", ...files], {
  cwd: REPO,
  stdio: "inherit",
});
child.on("exit", (code, signal) => {
  const wall = (performance.now() - started) / 1000;
  const load = loadavg()
    .map((x) => x.toFixed(2))
    .join(" ");
  console.log(
    `test:${tier} ${files.length} files: ${wall.toFixed(1)} s wall, ${childrenCpuSeconds().toFixed(1)} CPU-s, load average ${load}`,
  );
  process.exit(code ?? (signal === null ? 1 : 128));
});
