import assert from "node:assert/strict";
import { connect, type Socket } from "node:net";
import { after, before, describe, test } from "node:test";
import Fastify, { type FastifyInstance } from "fastify";
import { Registry } from "prom-client";
import type { EdgeErrorCodes } from "./edge-error-codes.ts";
import { createHttpMetrics } from "./http-metrics.ts";
import { afterHttpEdge, edgeServerOptions, type HttpEdgeOptions, httpEdge } from "./install-http-edge.ts";

// A service of its own, with its own code names, proves the edge answers in the service's registry.
const REGISTRY = {
  BAD: { status: 400, message: "bad request" },
  BAD_BODY: { status: 400, message: "bad body" },
  NO_ROUTE: { status: 404, message: "no route" },
  SLOW: { status: 408, message: "too slow" },
  BIG: { status: 413, message: "too big" },
  MEDIA: { status: 415, message: "json only" },
  HEADERS: { status: 431, message: "headers too large" },
  DRAINING: { status: 503, message: "draining" },
  OOPS: { status: 500, message: "internal" },
  TEAPOT: { status: 418, message: "the service's own refusal" },
  DENIED: { status: 401, message: "no token" },
} as const;
type Code = keyof typeof REGISTRY;
const CODES: EdgeErrorCodes<Code> = {
  badRequest: "BAD",
  badBody: "BAD_BODY",
  notFound: "NO_ROUTE",
  requestTimeout: "SLOW",
  payloadTooLarge: "BIG",
  unsupportedMediaType: "MEDIA",
  headersTooLarge: "HEADERS",
  shuttingDown: "DRAINING",
  internal: "OOPS",
};

class TeapotError extends Error {}
class DeniedError extends Error {}

async function buildApp(registry = new Registry()): Promise<FastifyInstance> {
  const edge: HttpEdgeOptions<Code> = {
    codes: CODES,
    describe: (code) => REGISTRY[code],
    bodyLimit: 1024,
    metrics: createHttpMetrics(registry, "test_"),
    classify: (error) =>
      error instanceof TeapotError
        ? { code: "TEAPOT", headers: { "x-why": "tea" } }
        : error instanceof DeniedError
          ? { code: "DENIED" }
          : undefined,
    // the shortest limit: Node then checks it every 250 ms
    requestTimeoutMs: 1_000,
  };
  const app = Fastify(edgeServerOptions(edge));
  await app.register(httpEdge<Code>(), edge);
  app.post("/echo", async (request) => ({ got: request.body }));
  // a route guarded as the services guard theirs: a token checked from the headers alone
  app.post(
    "/guarded",
    {
      bodyLimit: 32 * 1024 * 1024,
      onRequest: async (request) => {
        if (request.headers.authorization !== "Bearer ok") throw new DeniedError();
      },
    },
    async (request) => ({ got: typeof request.body }),
  );
  app.get("/teapot", async () => {
    throw new TeapotError("short and stout");
  });
  app.get("/crash", async () => {
    throw new Error("a bug of ours");
  });
  app.get("/metrics", async () => registry.metrics());
  return app;
}

interface Envelope {
  error: { code: string; message: string; request_id: string };
}

describe("the shared HTTP edge (issue 29 item 4)", () => {
  let app: FastifyInstance;
  let base: string;
  before(async () => {
    app = await buildApp();
    base = await app.listen({ port: 0, host: "127.0.0.1" });
  });
  after(() => app.close());

  test("keeps a well-formed caller X-Request-Id on success and on error, and replaces a malformed one", async () => {
    const ok = await fetch(`${base}/echo`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-request-id": "trace-42:a.b_c" },
      body: "{}",
    });
    assert.equal(ok.headers.get("x-request-id"), "trace-42:a.b_c");
    const refused = await fetch(`${base}/teapot`, { headers: { "x-request-id": "trace-43" } });
    assert.equal(((await refused.json()) as Envelope).error.request_id, "trace-43");
    const forged = await fetch(`${base}/teapot`, { headers: { "x-request-id": 'a b"c' } });
    const id = forged.headers.get("x-request-id") ?? "";
    assert.match(id, /^[0-9a-f-]{36}$/);
    assert.equal(((await forged.json()) as Envelope).error.request_id, id);
  });

  test("answers the service's own error with its code, status and headers", async () => {
    const response = await fetch(`${base}/teapot`);
    assert.equal(response.status, 418);
    assert.equal(response.headers.get("x-why"), "tea");
    assert.equal(((await response.json()) as Envelope).error.code, "TEAPOT");
  });

  test("answers 400, 404, 413, 415 and 500 from Fastify in the service's envelope", async () => {
    const cases: [string, RequestInit, number, string][] = [
      [
        "/echo",
        { method: "POST", headers: { "content-type": "application/json" }, body: "{" },
        400,
        "BAD_BODY",
      ],
      ["/nowhere", {}, 404, "NO_ROUTE"],
      [
        "/echo",
        { method: "POST", headers: { "content-type": "application/json" }, body: `"${"x".repeat(2000)}"` },
        413,
        "BIG",
      ],
      ["/echo", { method: "POST", headers: { "content-type": "text/plain" }, body: "{}" }, 415, "MEDIA"],
      ["/crash", {}, 500, "OOPS"],
      ["/%E0%A4%A", {}, 400, "BAD"],
    ];
    for (const [path, init, status, code] of cases) {
      const response = await fetch(`${base}${path}`, init);
      assert.equal(response.status, status, path);
      const body = (await response.json()) as Envelope;
      assert.equal(body.error.code, code, path);
      assert.equal(body.error.request_id, response.headers.get("x-request-id"), path);
      assert.doesNotMatch(JSON.stringify(body), /a bug of ours|at .*\.ts/, "no internals leak");
    }
  });

  test("answers a header section over Node's limit with 431 in the envelope", async () => {
    const answer = await rawRequest(
      base,
      `GET /echo HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`,
    );
    assert.match(answer, /^HTTP\/1\.1 431 /);
    assert.equal(
      (JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)) as Envelope).error.code,
      "HEADERS",
    );
  });

  test("answers a request that never finishes arriving with 408 in the envelope", async () => {
    const answer = await rawRequest(
      base,
      "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n{",
      true,
    );
    assert.match(answer, /^HTTP\/1\.1 408 /);
    assert.equal((JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)) as Envelope).error.code, "SLOW");
  });

  test("cuts a request trickling a byte every 300 ms with 408 within the limit plus a check interval", async () => {
    const { hostname, port } = new URL(base);
    const started = performance.now();
    const answer = await new Promise<string>((resolve) => {
      const socket = connect(Number(port), hostname, () => {
        socket.write(
          "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n",
        );
      });
      const trickle = setInterval(() => socket.writable && socket.write(" "), 300);
      let text = "";
      socket.setEncoding("utf8");
      socket.on("data", (chunk) => {
        text += chunk;
      });
      socket.on("error", () => {});
      socket.on("close", () => {
        clearInterval(trickle);
        resolve(text);
      });
    });
    const elapsed = performance.now() - started;
    assert.match(answer, /^HTTP\/1\.1 408 /);
    assert.ok(elapsed >= 900 && elapsed < 2_500, `cut after ${Math.round(elapsed)} ms (limit 1000 ms)`);
  });

  test("a POST refused in onRequest is answered and closed without its 16 MiB body being read (issue 38 item 4)", async () => {
    const sockets: Socket[] = [];
    const track = (socket: Socket) => sockets.push(socket);
    app.server.on("connection", track);
    try {
      const response = await fetch(`${base}/guarded`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: Buffer.alloc(16 * 1024 * 1024, 0x20),
      });
      assert.equal(response.status, 401);
      assert.equal(response.headers.get("connection"), "close");
      assert.equal(((await response.json()) as Envelope).error.code, "DENIED");
      const socket = sockets.at(-1);
      assert.ok(socket);
      if (!socket.destroyed) await new Promise((resolve) => socket.once("close", resolve));
      // the headers and what arrived with them, not the body: Node's read buffers are 64 KiB
      assert.ok(socket.bytesRead < 1024 * 1024, `the server read ${socket.bytesRead} bytes`);
    } finally {
      app.server.off("connection", track);
    }
  });

  test("a client still sending a refused body reads the answer before it finished sending, then the connection closes", async () => {
    const { hostname, port } = new URL(base);
    const total = 16 * 1024 * 1024;
    const { answer, sent } = await new Promise<{ answer: string; sent: number }>((resolve) => {
      let sent = 0;
      let answer = "";
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const socket = connect(Number(port), hostname, () => {
        socket.write(
          `POST /guarded HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${total}\r\n\r\n`,
        );
        const pump = () => {
          while (answer === "" && sent < total && socket.writable) {
            sent += chunk.length;
            if (!socket.write(chunk)) return void socket.once("drain", pump);
          }
        };
        pump();
      });
      socket.setEncoding("utf8");
      socket.on("data", (text) => {
        answer += text;
      });
      socket.on("error", () => {});
      socket.on("close", () => resolve({ answer, sent }));
    });
    assert.match(answer, /^HTTP\/1\.1 401 /);
    assert.match(answer, /"code":"DENIED"/);
    assert.ok(sent < total, `the answer came after ${sent} of ${total} bytes were handed to the socket`);
    // one answer and the connection's end: not kept alive to read the rest (and cut later with a 408)
    assert.equal(answer.match(/HTTP\/1\.1 /g)?.length, 1, answer);
  });

  test("an authenticated caller's large body is read and answered as usual", async () => {
    const response = await fetch(`${base}/guarded`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer ok" },
      body: JSON.stringify("x".repeat(4 * 1024 * 1024)),
    });
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { got: "string" });
  });

  test("counts requests by route pattern and status", async () => {
    await fetch(`${base}/teapot`);
    const text = await (await fetch(`${base}/metrics`)).text();
    assert.match(text, /test_http_requests_total\{method="GET",route="\/teapot",status="418"\} [1-9]/);
    assert.match(text, /test_http_requests_total\{method="GET",route="unmatched",status="404"\} [1-9]/);
  });
});

test("a draining service answers new requests with its shutting-down code, Retry-After and Connection: close", async () => {
  const app = await buildApp();
  await app.ready();
  app.startDraining();
  const response = await app.inject({ method: "POST", url: "/echo", payload: {} });
  assert.equal(response.statusCode, 503);
  assert.equal(response.headers["retry-after"], "1");
  assert.equal(response.headers.connection, "close");
  assert.equal((response.json() as Envelope).error.code, "DRAINING");
  await app.close();
});

/** Writes raw bytes and reads the whole answer until the server closes the connection. */
function rawRequest(base: string, bytes: string, keepOpen = false): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(bytes);
      if (!keepOpen) socket.end();
    });
    let answer = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk) => {
      answer += chunk;
    });
    socket.on("close", () => resolve(answer));
    socket.on("error", (error) => (answer ? resolve(answer) : reject(error)));
  });
}

test("a service's routes declared with afterHttpEdge load after the edge (its envelope and request id on their answers) and refuse to boot without it", async () => {
  const edge: HttpEdgeOptions<Code> = {
    codes: CODES,
    describe: (code) => REGISTRY[code],
    bodyLimit: 1024,
    metrics: createHttpMetrics(new Registry(), "test_"),
    requestTimeoutMs: 1_000,
  };
  const routes = afterHttpEdge("test-routes", (app) => {
    app.get("/teapot", async () => {
      throw new TeapotError("short and stout");
    });
  });
  const app = Fastify(edgeServerOptions(edge));
  void app.register(httpEdge<Code>(), edge);
  void app.register(routes);
  const answer = await app.inject({ method: "GET", url: "/teapot" });
  assert.ok(answer.headers["x-request-id"]);
  assert.equal(answer.json().error.request_id, answer.headers["x-request-id"]);
  await app.close();
  const bare = Fastify(edgeServerOptions(edge));
  void bare.register(routes);
  await assert.rejects(async () => {
    await bare.ready();
  }, /svc-http-edge/);
  await bare.close().catch(() => {});
});
