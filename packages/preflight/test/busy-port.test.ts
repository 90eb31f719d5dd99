import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { makeTempDir } from "@svc/testing";

const BIN = fileURLToPath(new URL("../bin/svc-preflight.ts", import.meta.url));

test("a busy port stops the bin with one line naming the port and what to do, no stack trace", async (t) => {
  const holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
  t.after(() => holder.close());
  const port = (holder.address() as { port: number }).port;
  const home = await makeTempDir("svc-busy-port-", t);
  const child = spawn(process.execPath, [BIN], {
    env: {
      PATH: process.env.PATH ?? "",
      HOME: home,
      PORT: String(port),
      HOST: "127.0.0.1",
      SVC_API_TOKEN: "busy-port-token-0123456789",
      LOG_LEVEL: "silent",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  assert.equal(code, 1);
  const lines = stderr.trim().split("\n");
  assert.equal(lines.length, 1, stderr);
  assert.match(
    lines[0] ?? "",
    new RegExp(`cannot listen on 127\\.0\\.0\\.1:${port}: the port is already in use; set PORT`),
  );
  assert.doesNotMatch(stderr, /^\s+at /m);
});
