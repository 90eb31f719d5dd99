import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, it } from "node:test";
import { makeTempDir } from "@svc/testing";

// Issue 37 item 9: asking a script for help must never start it. tools/build-images.sh --help used to
// start a full build (and, interrupted, left mounts behind); `npm test -- --help` ran the whole suite.
const REPO = resolve(import.meta.dirname, "..");
// A loaded 2-core machine starts node in well under a second; a script that began its work would
// take far longer (a build, a demo run, a suite).
const QUICK_MS = 10_000;

/** Every program under tools/ and scripts/ a person may run: shell scripts and .ts entry points (not tests). */
function programs(): string[] {
  const listed = (dir: string) =>
    readdirSync(join(REPO, dir))
      .filter((name) => name.endsWith(".sh") || (name.endsWith(".ts") && !name.endsWith(".test.ts")))
      .map((name) => `${dir}/${name}`);
  return [...listed("tools"), ...listed("scripts"), "bench/run.ts"].sort();
}

/** What a command could have written: the repository's untracked and ignored entries, top level and in .tools/ and out/. */
function repoFootprint(): string {
  const status = spawnSync("git", ["status", "--porcelain", "--ignored"], { cwd: REPO, encoding: "utf8" });
  const entries = (dir: string) => {
    try {
      return readdirSync(join(REPO, dir)).sort().join(",");
    } catch {
      return "(none)";
    }
  };
  return `${status.stdout}\n.tools: ${entries(".tools")}\nout: ${entries("out")}`;
}

async function runWithHelp(t: { after(fn: () => unknown): void }, argv: readonly string[], cwd?: string) {
  const home = await makeTempDir("svc-help-home-", t);
  const tmp = await makeTempDir("svc-help-tmp-", t);
  const work = await makeTempDir("svc-help-cwd-", t);
  const before = repoFootprint();
  const started = performance.now();
  const [command, ...args] = argv as [string, ...string[]];
  const result = spawnSync(command, args, {
    cwd: cwd ?? work,
    encoding: "utf8",
    timeout: 60_000,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: home,
      TMPDIR: tmp,
      XDG_CONFIG_HOME: join(home, ".config"),
      // npm asks the registry for a newer npm unless told not to: loopback only here.
      npm_config_update_notifier: "false",
    },
  });
  const ms = performance.now() - started;
  const left = (dir: string) => readdirSync(dir);
  return { result, ms, before, after: repoFootprint(), leftovers: [home, tmp, work].flatMap(left) };
}

describe("--help everywhere answers without side effects (issue 37 item 9)", () => {
  for (const program of programs()) {
    for (const flag of ["--help", "-h"]) {
      it(`${program} ${flag} prints usage, exits 0 within ${QUICK_MS / 1000} s and creates nothing`, async (t) => {
        const runner = program.endsWith(".sh") ? "bash" : process.execPath;
        const { result, ms, before, after, leftovers } = await runWithHelp(t, [
          runner,
          join(REPO, program),
          flag,
        ]);
        assert.equal(result.status, 0, `${program} ${flag}: ${result.stdout}${result.stderr}`);
        assert.match(result.stdout, /usage|sourced by/i, result.stdout);
        assert.ok(ms < QUICK_MS, `${program} ${flag} took ${Math.round(ms)} ms`);
        assert.deepEqual(leftovers, [], `${program} ${flag} wrote into HOME, TMPDIR or its folder`);
        assert.equal(after, before, `${program} ${flag} changed the repository`);
      });
    }
  }

  it("npm test -- --help prints the test script's usage and runs no test, typecheck or lint", async (t) => {
    const { result, ms, before, after, leftovers } = await runWithHelp(
      t,
      ["npm", "test", "--", "--help"],
      REPO,
    );
    assert.equal(result.status, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /Usage: npm test/);
    // npm prints "> <script>" before each script it runs: only the test script itself ran.
    assert.doesNotMatch(result.stdout, /^> (typecheck|lint|test:unit)$/m);
    assert.doesNotMatch(result.stdout, /^# tests /m);
    assert.ok(ms < QUICK_MS * 2, `npm test -- --help took ${Math.round(ms)} ms`);
    // npm itself keeps its log folder in HOME and Node's compile cache in TMPDIR; nothing else may appear.
    const npmOwn = new Set([".npm", "node-compile-cache"]);
    assert.deepEqual(
      leftovers.filter((entry) => !npmOwn.has(entry)),
      [],
    );
    assert.equal(after, before);
  });

  it("npm test with any other argument is refused (exit 2) rather than ignored", async (t) => {
    const { result } = await runWithHelp(t, ["npm", "test", "--", "packages/core"], REPO);
    assert.equal(result.status, 2, result.stdout + result.stderr);
    assert.match(result.stderr, /npm test takes no arguments \(got packages\/core\)/);
  });
});
