import assert from "node:assert/strict";
import { connect } from "node:net";
import { after, before, describe, test } from "node:test";
import { type ServiceHarness, startServiceHarness, TEST_TOKEN } from "./service-harness.ts";

interface ErrorBody {
  error: { code: string; message: string; request_id: string };
}

// The preflight side of the shared HTTP edge (@svc/http-edge, issue 29 item 4): the same envelope,
// request ids and framework answers as the entitlement service, in preflight's own codes.
describe("preflight's HTTP edge", () => {
  let harness: ServiceHarness;
  before(async () => {
    harness = await startServiceHarness();
  });
  after(() => harness.close());

  test("keeps the caller's well-formed X-Request-Id in the header and the error body", async () => {
    const response = await fetch(`${harness.baseUrl}/api/runs/check?runId=run_1`, {
      headers: { "x-request-id": "gateway-7f3a:1" },
    });
    assert.equal(response.status, 401);
    assert.equal(response.headers.get("x-request-id"), "gateway-7f3a:1");
    assert.equal(((await response.json()) as ErrorBody).error.request_id, "gateway-7f3a:1");
  });

  test("answers 413, 415 and a malformed body in the envelope with preflight's codes", async () => {
    const post = (body: string, type: string) =>
      fetch(`${harness.baseUrl}/api/pipeline/run`, {
        method: "POST",
        headers: { authorization: `Bearer ${TEST_TOKEN}`, "content-type": type },
        body,
      });
    for (const [response, status, code] of [
      [await post(`{"x":"${"a".repeat(70 * 1024)}"}`, "application/json"), 413, "PAYLOAD_TOO_LARGE"],
      [await post("{}", "text/plain"), 415, "UNSUPPORTED_MEDIA_TYPE"],
      [await post("{", "application/json"), 400, "INVALID_BODY"],
    ] as const) {
      assert.equal(response.status, status, code);
      const body = (await response.json()) as ErrorBody;
      assert.equal(body.error.code, code);
      assert.equal(body.error.request_id, response.headers.get("x-request-id"));
    }
  });

  test("answers a header section over 16 KiB with 431 HEADERS_TOO_LARGE in the envelope", async () => {
    const { hostname, port } = new URL(harness.baseUrl);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), hostname, () =>
        socket.end(`GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`),
      );
      let text = "";
      socket.setEncoding("utf8");
      socket.on("data", (chunk) => {
        text += chunk;
      });
      socket.on("close", () => resolve(text));
      socket.on("error", (error) => (text ? resolve(text) : reject(error)));
    });
    assert.match(answer, /^HTTP\/1\.1 431 /);
    const body = JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)) as ErrorBody;
    assert.equal(body.error.code, "HEADERS_TOO_LARGE");
  });

  test("a draining service answers 503 SHUTTING_DOWN with Retry-After", async () => {
    const other = await startServiceHarness();
    try {
      other.app.startDraining();
      const response = await fetch(`${other.baseUrl}/api/health`);
      assert.equal(response.status, 503);
      assert.equal(response.headers.get("retry-after"), "1");
      assert.equal(((await response.json()) as ErrorBody).error.code, "SHUTTING_DOWN");
    } finally {
      await other.close();
    }
  });
});
