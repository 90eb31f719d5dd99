// No `process.env` read outside config modules (issue 29 item 5, ARCHITECTURE.md convention 4):
// the environment is read where a process starts (its bin, or a `main` that hands it to the
// config reader) and by the config modules; everything else takes the frozen config. A read
// anywhere else is a setting the config schema, the chart contract tests and the README tables
// cannot see.
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { test } from "node:test";
import { walkTree } from "@svc/core";

const ROOT = new URL("..", import.meta.url).pathname;
// @svc/testing is test infrastructure: its doubles read the test process's environment by design.
const PRODUCTION_PACKAGES = readdirSync(join(ROOT, "packages")).filter((name) => name !== "testing");

/** Config modules and process edges, the only places `process.env` may appear. */
const ALLOWED = [
  /^packages\/[^/]+\/src\/config\.ts$/,
  /^packages\/[^/]+\/src\/config\//,
  /^packages\/[^/]+\/src\/main\.ts$/,
  /^packages\/[^/]+\/bin\//,
  // the services' one process edge, handed to runService (http-edge)
  /^packages\/http-edge\/src\/service-process\.ts$/,
];

/** The package's production source files below `folder` (tests left out), by core's one walker. */
async function productionFiles(folder: string): Promise<string[]> {
  if (!existsSync(folder)) return [];
  const { files } = await walkTree(folder, { exclude: (path) => path.split("/").includes("node_modules") });
  return files
    .filter((path) => /\.(ts|js)$/.test(path) && !path.endsWith(".test.ts"))
    .map((path) => join(folder, path));
}

/** Lines of `text` whose code (not a comment) names `process.env`, 1-based. */
function envReadLines(text: string): number[] {
  const lines: number[] = [];
  text.split("\n").forEach((line, at) => {
    const code = line.replace(/\/\/.*$/, "").replace(/^\s*(\/\*\*?|\*).*$/, "");
    if (/\bprocess\.env\b/.test(code)) lines.push(at + 1);
  });
  return lines;
}

test("process.env is read only by config modules and at process edges", async () => {
  const readers: string[] = [];
  for (const name of PRODUCTION_PACKAGES)
    for (const folder of ["src", "bin"])
      for (const file of await productionFiles(join(ROOT, "packages", name, folder))) {
        const path = relative(ROOT, file);
        if (ALLOWED.some((pattern) => pattern.test(path))) continue;
        for (const line of envReadLines(readFileSync(file, "utf8"))) readers.push(`${path}:${line}`);
      }
  assert.deepEqual(readers, []);
});

test("a read in code is found; one named in a comment is not", () => {
  const text = [
    "// process.env is read by config.ts",
    " * process.env.SVC_X in a doc comment",
    "const token = process.env.SVC_TOKEN; // a read",
    "const env = { ...process.env };",
  ].join("\n");
  assert.deepEqual(envReadLines(text), [3, 4]);
});
