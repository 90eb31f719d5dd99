import assert from "node:assert/strict";
import { createServer } from "node:net";
import { test } from "node:test";
import { ConfigProblemsError } from "@svc/core";
import Fastify from "fastify";
import { runService, type ServiceParts } from "./run-service.ts";
import type { ServiceProcess } from "./service-process.ts";

interface FakeConfig {
  readonly port: number;
  readonly refuse: boolean;
}

function fakeProcess(env: NodeJS.ProcessEnv) {
  const handlers = new Map<string, () => void>();
  const stderr: string[] = [];
  let resolveExit: (code: number) => void = () => {};
  const exited = new Promise<number>((resolve) => {
    resolveExit = resolve;
  });
  const io: ServiceProcess = {
    env,
    stderr: (line) => stderr.push(line),
    exit: (code) => resolveExit(code),
    onSignal: (signal, handler) => handlers.set(signal, handler),
  };
  return { io, stderr, exited, signal: (name: string) => handlers.get(name)?.() };
}

/** `arrived` is called when a request reaches /slow's handler, so a test signals with it in flight. */
function parts(
  log: string[],
  arrived: () => void = () => {},
): ServiceParts<FakeConfig, { readonly app: ReturnType<typeof Fastify> }> {
  return {
    name: "svc-fake",
    readConfig(env) {
      if (env.REFUSE === "1") throw new ConfigProblemsError("fake", ["PORT must be a number"]);
      return { port: Number(env.PORT ?? 0), refuse: false };
    },
    async build() {
      log.push("build");
      // fetch keeps its socket alive; a short keep-alive lets close() finish as soon as the
      // answered connection is idle, instead of Fastify's 72 s default (the test took 70 s)
      const app = Fastify({ keepAliveTimeout: 100 });
      app.get("/slow", async () => {
        arrived();
        await new Promise((resolve) => setTimeout(resolve, 200));
        return { done: true };
      });
      return { app };
    },
    where: (config) => `127.0.0.1:${config.port}`,
    async listen({ app }, config) {
      await app.listen({ port: config.port, host: "127.0.0.1" });
      log.push("listen");
    },
    async close({ app }) {
      log.push("close");
      await app.close();
    },
  };
}

test("a refused configuration is its message on stderr and exit 2, nothing built", async () => {
  const log: string[] = [];
  const fake = fakeProcess({ REFUSE: "1" });
  assert.equal(await runService(parts(log), fake.io), undefined);
  assert.equal(await fake.exited, 2);
  assert.deepEqual(fake.stderr, ["invalid fake configuration:\n  - PORT must be a number"]);
  assert.deepEqual(log, []);
});

test("a busy port is one line naming the address and exit 2, what was built closed", async (t) => {
  const holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
  t.after(() => holder.close());
  const port = (holder.address() as { port: number }).port;
  const log: string[] = [];
  const fake = fakeProcess({ PORT: String(port) });
  assert.equal(await runService(parts(log), fake.io), undefined);
  assert.equal(await fake.exited, 2);
  assert.equal(fake.stderr.length, 1);
  assert.match(
    fake.stderr[0] ?? "",
    new RegExp(`^svc-fake: cannot listen on 127\\.0\\.0\\.1:${port}: the port is already in use`),
  );
  assert.deepEqual(log, ["build", "close"]);
});

test("SIGTERM drains: the request in flight is answered, then close runs and the process exits 0", async () => {
  const log: string[] = [];
  const fake = fakeProcess({});
  let arrived = () => {};
  const reached = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  const service = await runService(parts(log, arrived), fake.io);
  assert.ok(service);
  const { port } = service.app.server.address() as { port: number };
  const inFlight = fetch(`http://127.0.0.1:${port}/slow`);
  // In the handler, not after a guessed 50 ms: on a loaded machine the request arrived after the
  // signal and was refused (503) as a request to a draining service.
  await reached;
  fake.signal("SIGTERM");
  const answer = await inFlight;
  assert.equal(answer.status, 200);
  assert.deepEqual(await answer.json(), { done: true });
  assert.equal(await fake.exited, 0);
  assert.deepEqual(log, ["build", "listen", "close"]);
});

test("a second signal while draining exits 1 at once", async () => {
  const log: string[] = [];
  const fake = fakeProcess({});
  let arrived = () => {};
  const reached = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  const service = await runService(parts(log, arrived), fake.io);
  assert.ok(service);
  const { port } = service.app.server.address() as { port: number };
  const inFlight = fetch(`http://127.0.0.1:${port}/slow`);
  // In the handler, not after a guessed 50 ms: on a loaded machine the request arrived after the
  // signal and was refused (503) as a request to a draining service.
  await reached;
  fake.signal("SIGINT");
  fake.signal("SIGINT");
  assert.equal(await fake.exited, 1);
  await inFlight;
});
