import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { MAIN_THREAD_NODE_FLAGS } from "./heap-limits.ts";

const IMAGES = ["../Dockerfile", "../Dockerfile.gpu"];

test("each runner image starts its main thread with MAIN_THREAD_NODE_FLAGS, the entrypoint and svc-runner alike", () => {
  for (const image of IMAGES) {
    const text = readFileSync(new URL(image, import.meta.url), "utf8");
    const options = [...text.matchAll(/^ENV NODE_OPTIONS="([^"]*)"$/gm)].map((match) => match[1]);
    assert.deepEqual(options, [MAIN_THREAD_NODE_FLAGS.join(" ")], image);
    // Set before the first `node` the image runs as the runner, so the build's --help checks use it too.
    assert.ok(text.indexOf("ENV NODE_OPTIONS=") < text.indexOf('RUN ["node", "packages/runner/bin'), image);
  }
});

test("Node accepts MAIN_THREAD_NODE_FLAGS in NODE_OPTIONS (a bad V8 value stops node at start)", () => {
  const start = (options: string) =>
    execFileSync(process.execPath, ["-e", "process.stdout.write('started')"], {
      env: { ...process.env, NODE_OPTIONS: options },
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
  assert.equal(start(MAIN_THREAD_NODE_FLAGS.join(" ")), "started");
  assert.throws(() => start("--max-semi-space-size=sixteen"));
});
