// `npm run bench`: runs every `bench/*.bench.ts` in its own process, one after another, so each
// benchmark measures itself and its anchor on an otherwise idle machine.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
if (process.argv.includes("--help") || process.argv.includes("-h")) {
  const names = readdirSync(here)
    .filter((name) => name.endsWith(".bench.ts"))
    .map((name) => name.replace(/\.bench\.ts$/, ""))
    .sort();
  process.stdout.write(
    `Usage: npm run bench [-- <name>... [--flag...]]   (node bench/run.ts)\n\n` +
      "Runs every bench/*.bench.ts (or those whose file name contains a <name>) one after another,\n" +
      "each in its own process; --flag arguments are passed on to each.\n" +
      `  -h, --help  print this and run nothing\nBenchmarks: ${names.join(", ")}\n`,
  );
  process.exit(0);
}
// Names pick benchmarks; `--flag` arguments are passed on to each (e.g. `-- runner --report-560k`).
const only = process.argv.slice(2).filter((arg) => !arg.startsWith("--"));
const flags = process.argv.slice(2).filter((arg) => arg.startsWith("--"));
const benches = readdirSync(here)
  .filter((name) => name.endsWith(".bench.ts"))
  .filter((name) => only.length === 0 || only.some((wanted) => name.includes(wanted)))
  .sort();
if (benches.length === 0) console.log("no benchmarks match");
let failed = 0;
for (const name of benches) {
  console.log(`\n== ${name}`);
  const result = spawnSync(process.execPath, [join(here, name), ...flags], { stdio: "inherit" });
  if (result.status !== 0) failed++;
}
process.exitCode = failed === 0 ? 0 : 1;
