import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, before, describe, it } from "node:test";

const REPO = resolve(import.meta.dirname, "..");
let out: string;

function runDemo() {
  return spawnSync(process.execPath, [join(REPO, "scripts", "demo.ts")], {
    cwd: REPO,
    env: { ...process.env, SVC_DEMO_OUT: out },
    encoding: "utf8",
    timeout: 120_000,
  });
}

before(async () => {
  out = await mkdtemp(join(tmpdir(), "svc-demo-test-"));
});

after(async () => {
  await rm(out, { recursive: true, force: true });
});

describe("npm run demo (the README's first command)", () => {
  const urls: string[] = [];

  it("runs the full entitled lifecycle and reports a seal VERIFIED offline and online", () => {
    const demo = runDemo();
    assert.equal(demo.status, 0, `${demo.stdout}\n${demo.stderr}`);
    assert.match(demo.stdout, /seal offline: VERIFIED/);
    assert.match(demo.stdout, /seal online: {2}VERIFIED \(issued by this service\)/);
    // Issue 11: the demo lists exactly which required modules remain and why.
    const coverage = /coverage {2}(\d+) of (\d+) required modules ran; (\d+) remain:/.exec(demo.stdout);
    assert.ok(coverage, demo.stdout);
    assert.equal(Number(coverage[1]) + Number(coverage[3]), Number(coverage[2]));
    assert.equal(demo.stdout.match(/^ {4}- \w+: not available: /gm)?.length, Number(coverage[3]));
    urls.push(/entitlement service at (http:\/\/\S+)/.exec(demo.stdout)?.[1] ?? "");
  });

  it("works again with a new run id", async () => {
    const demo = runDemo();
    assert.equal(demo.status, 0, `${demo.stdout}\n${demo.stderr}`);
    urls.push(/entitlement service at (http:\/\/\S+)/.exec(demo.stdout)?.[1] ?? "");
    const runs = await readdir(join(out, "output"));
    assert.equal(runs.length, 2, runs.join(", "));
  });

  it("leaves a run folder that `svc seal verify <run dir>` says is VERIFIED", async () => {
    for (const run of await readdir(join(out, "output"))) {
      const verify = spawnSync(
        process.execPath,
        [join(REPO, "packages", "cli", "bin", "svc.ts"), "seal", "verify", join(out, "output", run)],
        {
          encoding: "utf8",
        },
      );
      assert.equal(verify.status, 0, verify.stdout + verify.stderr);
      assert.match(verify.stdout, /^VERIFIED /);
    }
  });

  it("leaves nothing running: the services it started no longer answer", async () => {
    assert.equal(urls.length, 2);
    for (const url of urls) {
      await assert.rejects(fetch(`${url}/api/health`), `${url} still answers`);
    }
  });
});
