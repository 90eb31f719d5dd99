import assert from "node:assert/strict";
import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import { after, before, describe, test } from "node:test";
import { listRegisteredRoutes } from "../src/app.ts";
import { type ServiceHarness, startServiceHarness, TEST_TOKEN } from "./service-harness.ts";

interface ErrorBody {
  error: { code: string; message: string; request_id: string };
}

// The routes open without a token (spec §4.2, §5.2): probes, the module list, OpenAPI, metrics.
const OPEN = [
  "GET /api/health",
  "GET /api/config",
  "GET /api/modules",
  "GET /api/ready",
  "GET /openapi.json",
  "GET /metrics",
];

describe("bearer auth (spec §5.2)", () => {
  let harness: ServiceHarness;
  const rotated = "rotated-token-abcdefghijklmnop";
  before(async () => {
    harness = await startServiceHarness({
      env: {
        K8S_API_TOKENS: JSON.stringify([{ token: "first-token-abcdefghijklmnop" }, { token: rotated }]),
      },
    });
  });
  after(() => harness.close());

  test("health, config and modules are open", async () => {
    const health = (await (await fetch(`${harness.baseUrl}/api/health`)).json()) as { status: string };
    assert.equal(health.status, "ok");
    const modules = (await (await fetch(`${harness.baseUrl}/api/modules`)).json()) as {
      modules: {
        id: string;
        smokeCommand: string;
        image: string;
        description: string;
        legacySmokeCommand: string;
      }[];
    };
    const computational = modules.modules.find((entry) => entry.id === "computational");
    assert.equal(computational?.smokeCommand, "svc-runner --help");
    assert.equal(computational?.legacySmokeCommand, "python3 -m app.svc_core_runner_v3 --help");
    assert.equal(computational?.image, "registry.example/svc/runner:1.0.0");
    assert.ok(computational?.description);
  });

  test("config reports the wiring and never a token", async () => {
    const response = await fetch(`${harness.baseUrl}/api/config`);
    const text = await response.text();
    const config = JSON.parse(text) as {
      inCluster: boolean;
      storage: { mode: string; outputRoot: string };
      runner: { image: string; serviceAccount: string; appFullname: string; dataClaim: string };
      auth: { enabled: boolean };
      version: string;
    };
    assert.equal(config.inCluster, false);
    assert.equal(config.storage.mode, "pvc");
    assert.equal(config.storage.outputRoot, harness.outputRoot);
    assert.equal(config.runner.image, "registry.example/svc/runner:1.0.0");
    assert.equal(config.runner.serviceAccount, "svc-runner");
    assert.equal(config.runner.appFullname, "svc-preflight");
    assert.equal(config.runner.dataClaim, "audit-data");
    assert.equal(config.auth.enabled, true);
    assert.ok(config.version);
    for (const secret of [TEST_TOKEN, rotated, "first-token", "double-sa-token"])
      assert.ok(!text.includes(secret), secret);
  });

  test("every protected route in the route table is 401 without a token, with WWW-Authenticate: Bearer", async () => {
    // generated from the app's own route table (issue 29 item 4): a route added to the protected
    // scope is checked here without a line of its own; a new open route must be listed in OPEN
    const routes = listRegisteredRoutes(harness.app);
    const open = routes.filter((route) => !route.protected).map((route) => `${route.method} ${route.url}`);
    assert.deepEqual(open.sort(), [...OPEN].sort(), "the open routes are exactly the documented ones");
    const guarded = routes.filter((route) => route.protected);
    assert.ok(guarded.length >= 11, `${guarded.length} protected routes`);
    for (const route of guarded) {
      const path = route.url.replaceAll(":runId", "run_1");
      const init: RequestInit =
        route.method === "GET"
          ? {}
          : { method: route.method, body: "{}", headers: { "content-type": "application/json" } };
      const response = await fetch(`${harness.baseUrl}${path}`, init);
      const where = `${route.method} ${route.url}`;
      assert.equal(response.status, 401, where);
      assert.match(response.headers.get("www-authenticate") ?? "", /^Bearer/, where);
      const body = (await response.json()) as ErrorBody;
      assert.equal(body.error.code, "AUTH_MISSING", where);
      assert.equal(body.error.request_id, response.headers.get("x-request-id"), where);
    }
  });

  test("a wrong token or another scheme is 401; wrong carries error=invalid_token", async () => {
    let response = await fetch(`${harness.baseUrl}/api/runs/check?runId=run_1`, {
      headers: { authorization: "Bearer wrong-token-xxxxxxxxxxxx" },
    });
    assert.equal(response.status, 401);
    assert.match(response.headers.get("www-authenticate") ?? "", /error="invalid_token"/);
    assert.equal(((await response.json()) as ErrorBody).error.code, "AUTH_INVALID");
    response = await fetch(`${harness.baseUrl}/api/runs/check?runId=run_1`, {
      headers: { authorization: `Basic ${TEST_TOKEN}` },
    });
    assert.equal(response.status, 401);
    assert.equal(((await response.json()) as ErrorBody).error.code, "AUTH_MISSING");
  });

  test("a POST refused for its token is answered and closed without its 16 MiB body being read (issue 38 item 4)", async () => {
    const sockets: Socket[] = [];
    const track = (request: IncomingMessage) => sockets.push(request.socket);
    harness.app.server.on("request", track);
    try {
      const response = await fetch(`${harness.baseUrl}/api/pipeline/run`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: Buffer.alloc(16 * 1024 * 1024, 0x20),
      });
      assert.equal(response.status, 401);
      assert.equal(response.headers.get("connection"), "close");
      assert.equal(((await response.json()) as ErrorBody).error.code, "AUTH_MISSING");
      const socket = sockets.at(-1);
      assert.ok(socket);
      if (!socket.destroyed) await new Promise((resolve) => socket.once("close", resolve));
      assert.ok(socket.bytesRead < 1024 * 1024, `the server read ${socket.bytesRead} bytes`);
    } finally {
      harness.app.server.off("request", track);
    }
  });

  test("every K8S_API_TOKENS entry and the explicit token are accepted (rotation)", async () => {
    for (const token of ["first-token-abcdefghijklmnop", rotated, TEST_TOKEN]) {
      const response = await fetch(`${harness.baseUrl}/api/runs/check?runId=run_1`, {
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(response.status, 200, token.slice(0, 5));
      await response.arrayBuffer();
    }
  });

  test("unknown routes and malformed URLs answer the JSON error shape", async () => {
    let response = await fetch(`${harness.baseUrl}/api/nope`);
    assert.equal(response.status, 404);
    assert.equal(((await response.json()) as ErrorBody).error.code, "ROUTE_NOT_FOUND");
    response = await harness.call("/api/outputs/list?runId=%zz");
    assert.equal(response.status, 400);
    await response.arrayBuffer();
  });
});

describe("auth disabled", () => {
  let harness: ServiceHarness;
  before(async () => {
    harness = await startServiceHarness({ env: { SVC_AUTH_DISABLED: "true", SVC_API_TOKEN: "" } });
  });
  after(() => harness.close());

  test("protected endpoints answer without a token and /api/config says so loudly", async () => {
    const response = await fetch(`${harness.baseUrl}/api/runs/check?runId=run_1`);
    assert.equal(response.status, 200);
    const config = (await (await fetch(`${harness.baseUrl}/api/config`)).json()) as {
      auth: { enabled: boolean; warning: string };
      warnings: string[];
    };
    assert.equal(config.auth.enabled, false);
    assert.match(config.auth.warning, /AUTH DISABLED/);
    assert.equal(config.warnings.length, 1);
  });
});
