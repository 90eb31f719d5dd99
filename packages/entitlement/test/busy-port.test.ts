import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { BIN } from "./spawn-service.ts";

test("a busy port stops svc-entitlement with one line naming the port and what to do, no stack trace", async (t) => {
  const holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
  t.after(() => holder.close());
  const port = (holder.address() as { port: number }).port;
  const dataDir = await mkdtemp(join(tmpdir(), "svc-busy-port-"));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  const child = spawn(process.execPath, [BIN], {
    env: { PATH: process.env.PATH ?? "", PORT: String(port), HOST: "127.0.0.1", SVC_DATA_DIR: dataDir },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  assert.equal(code, 2);
  const lines = stderr.trim().split("\n");
  assert.equal(lines.length, 1, stderr);
  assert.match(
    lines[0] ?? "",
    new RegExp(`cannot listen on 127\\.0\\.0\\.1:${port}: the port is already in use; set PORT`),
  );
  assert.doesNotMatch(stderr, /^\s+at /m);
});
