// `npm run bench`: runs every `bench/*.bench.ts` in its own process, one after another, so each
// benchmark measures itself and its anchor on an otherwise idle machine.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
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
