import assert from "node:assert/strict";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { assertBusyPortLine, makeTempDir, startOnBusyPort } from "@svc/testing";

const BIN = fileURLToPath(new URL("../bin/svc-preflight.ts", import.meta.url));

test("a busy port stops the bin with one line naming the port and what to do, no stack trace, exit 2 like a refused configuration", async (t) => {
  const home = await makeTempDir("svc-busy-port-", t);
  const { port, code, stderr } = await startOnBusyPort(t, BIN, {
    HOME: home,
    SVC_API_TOKEN: "busy-port-token-0123456789",
    LOG_LEVEL: "silent",
  });
  assert.equal(code, 2);
  assertBusyPortLine(stderr, port);
});
