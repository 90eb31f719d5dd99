import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createServer } from "node:net";

/**
 * Starts the service `bin` (a TypeScript entry run by this Node) on a loopback port another
 * listener already holds, with `env` added to a bare PATH, and waits for it to exit. The holder
 * closes when the test ends.
 */
export async function startOnBusyPort(
  t: { after: (fn: () => void) => void },
  bin: string,
  env: Record<string, string>,
): Promise<{ port: number; code: number | null; stderr: string }> {
  const holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
  t.after(() => holder.close());
  const port = (holder.address() as { port: number }).port;
  const child = spawn(process.execPath, [bin], {
    env: { PATH: process.env.PATH ?? "", ...env, PORT: String(port), HOST: "127.0.0.1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  return { port, code, stderr };
}

/** The one-line refusal both services give for a busy port: the address, the cause, what to set; no stack trace. */
export function assertBusyPortLine(stderr: string, port: number): void {
  const lines = stderr.trim().split("\n");
  assert.equal(lines.length, 1, stderr);
  assert.match(
    lines[0] ?? "",
    new RegExp(`cannot listen on 127\\.0\\.0\\.1:${port}: the port is already in use; set PORT`),
  );
  assert.doesNotMatch(stderr, /^\s+at /m);
}
