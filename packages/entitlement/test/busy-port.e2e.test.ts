import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { assertBusyPortLine, startOnBusyPort } from "@svc/testing";
import { BIN } from "./spawn-service.ts";

test("a busy port stops svc-entitlement with one line naming the port and what to do, no stack trace", async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), "svc-busy-port-"));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  const { port, code, stderr } = await startOnBusyPort(t, BIN, { SVC_DATA_DIR: dataDir });
  assert.equal(code, 2);
  assertBusyPortLine(stderr, port);
});
