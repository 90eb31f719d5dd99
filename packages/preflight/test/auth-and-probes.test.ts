import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { type ServiceHarness, startServiceHarness, TEST_TOKEN } from "./service-harness.ts";

interface ErrorBody {
  error: { code: string; message: string; request_id: string };
}

const PROTECTED = [
  "/api/runs/check?runId=run_1",
  "/api/modules/computational/status?namespace=svc",
  "/api/k8s/pods?namespace=svc",
  "/api/outputs/list?runId=run_1",
  "/api/outputs/download?runId=run_1&path=a.json",
  "/api/outputs/repro-pack.tgz?runId=run_1",
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

  test("a missing token is 401 with WWW-Authenticate: Bearer on every protected endpoint", async () => {
    for (const path of PROTECTED) {
      const response = await fetch(`${harness.baseUrl}${path}`);
      assert.equal(response.status, 401, path);
      assert.match(response.headers.get("www-authenticate") ?? "", /^Bearer/, path);
      const body = (await response.json()) as ErrorBody;
      assert.equal(body.error.code, "AUTH_MISSING");
      assert.equal(body.error.request_id, response.headers.get("x-request-id"));
    }
    for (const init of [{ method: "POST", body: "{}", headers: { "content-type": "application/json" } }]) {
      for (const path of ["/api/pipeline/run", "/api/modules/computational/smoke"]) {
        const response = await fetch(`${harness.baseUrl}${path}`, init);
        assert.equal(response.status, 401, path);
      }
    }
  });

  test("a wrong token or another scheme is 401; wrong carries error=invalid_token", async () => {
    let response = await fetch(`${harness.baseUrl}${PROTECTED[0]}`, {
      headers: { authorization: "Bearer wrong-token-xxxxxxxxxxxx" },
    });
    assert.equal(response.status, 401);
    assert.match(response.headers.get("www-authenticate") ?? "", /error="invalid_token"/);
    assert.equal(((await response.json()) as ErrorBody).error.code, "AUTH_INVALID");
    response = await fetch(`${harness.baseUrl}${PROTECTED[0]}`, {
      headers: { authorization: `Basic ${TEST_TOKEN}` },
    });
    assert.equal(response.status, 401);
    assert.equal(((await response.json()) as ErrorBody).error.code, "AUTH_MISSING");
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
