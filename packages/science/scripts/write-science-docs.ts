// The one command that regenerates every generated block of docs/science.md (issue 24 item 7).
// Each block names, in its BEGIN marker, the test that renders it from checked-in data; this script
// runs those tests with UPDATE_SCIENCE_DOCS=1, so a stale block is rewritten instead of failing.
//   node packages/science/scripts/write-science-docs.ts               # every block
//   node packages/science/scripts/write-science-docs.ts tdc-figures   # only the named blocks
// The docking and PLIP blocks need Debian's vina, obabel, plip and python3 packages and minutes of CPU;
// a test whose tools are missing skips and leaves its block as it was.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { findGeneratedBlocks, UPDATE_DOCS_ENV } from "@svc/testing";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const docs = readFileSync(new URL("docs/science.md", `file://${root}`), "utf8");
const wanted = process.argv.slice(2);
const blocks = findGeneratedBlocks(docs).filter((b) => wanted.length === 0 || wanted.includes(b.name));
const unknown = wanted.filter((name) => !blocks.some((b) => b.name === name));
if (unknown.length > 0) {
  console.error(`no generated block named ${unknown.join(", ")} in docs/science.md`);
  process.exit(2);
}
const sources = [...new Set(blocks.map((b) => b.source))];
console.log(`regenerating ${blocks.length} blocks from ${sources.length} tests:\n  ${sources.join("\n  ")}`);
const result = spawnSync(process.execPath, ["--test", "--test-concurrency=1", ...sources], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, [UPDATE_DOCS_ENV]: "1" },
});
process.exit(result.status ?? 1);
