import assert from "node:assert/strict";
import { connect } from "node:net";
import { after, before, describe, it } from "node:test";
import type { SvgUpload } from "../src/http/svg-upload.ts";
import { createSealVerifyPool } from "../src/seal/seal-verify-pool.ts";
import { startTestService, type TestService } from "./app-harness.ts";

/** Sends raw bytes on one connection and returns everything the server wrote until it closed. */
function exchange(url: string, bytes: string, afterWrite?: () => void): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(bytes);
      afterWrite?.();
    });
    let received = "";
    socket.on("data", (chunk) => {
      received += chunk.toString("utf8");
    });
    socket.on("error", (error) => (received ? resolve(received) : reject(error)));
    socket.on("close", () => resolve(received));
  });
}

interface ErrorBody {
  error: { code: string; message: string; request_id: string };
}

/** Status, headers and JSON body of each HTTP/1.1 response in `raw` (Content-Length framed). */
function parseResponses(raw: string): { status: number; headers: Record<string, string>; body: ErrorBody }[] {
  const responses = [];
  let rest = raw;
  while (rest.startsWith("HTTP/1.1 ")) {
    const headEnd = rest.indexOf("\r\n\r\n");
    const [statusLine, ...lines] = rest.slice(0, headEnd).split("\r\n");
    const headers = Object.fromEntries(
      lines.map((line) => [
        line.slice(0, line.indexOf(":")).toLowerCase(),
        line.slice(line.indexOf(":") + 1).trim(),
      ]),
    );
    const length = Number(headers["content-length"]);
    const body = rest.slice(headEnd + 4, headEnd + 4 + length);
    responses.push({ status: Number(statusLine?.split(" ")[1]), headers, body: JSON.parse(body) });
    rest = rest.slice(headEnd + 4 + length);
  }
  return responses;
}

function assertEnvelope(body: unknown, code: string, requestId?: string): void {
  const { error } = body as ErrorBody;
  assert.deepEqual(Object.keys(body as object), ["error"]);
  assert.deepEqual(Object.keys(error).sort(), ["code", "message", "request_id"]);
  assert.equal(error.code, code);
  assert.equal(typeof error.message, "string");
  if (requestId !== undefined) assert.equal(error.request_id, requestId);
}

describe("one error envelope for everything the service answers (issue 16 item 4)", () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(async () => {
    await svc.close();
  });

  it("answers a header section of 16 KiB or more with 431 HEADERS_TOO_LARGE in the envelope", async () => {
    const raw = await exchange(
      svc.url,
      `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Padding: ${"a".repeat(17 * 1024)}\r\n\r\n`,
    );
    const [response] = parseResponses(raw);
    assert.equal(response?.status, 431);
    assertEnvelope(response?.body, "HEADERS_TOO_LARGE", response?.headers["x-request-id"]);
  });

  it("answers broken HTTP with 400 in the envelope", async () => {
    const [response] = parseResponses(await exchange(svc.url, "NOT-HTTP\r\n\r\n"));
    assert.equal(response?.status, 400);
    assertEnvelope(response?.body, "REQUEST_INVALID");
  });

  it("answers JSON sent as text/plain with 415, a too large body with 413, an empty JSON body with 400", async () => {
    const token = await svc.tokenFor("alice");
    const post = (contentType: string, body: string) =>
      fetch(`${svc.url}/api/entitlement/check`, {
        method: "POST",
        headers: { "content-type": contentType, authorization: `Bearer ${token}` },
        body,
      }).then(async (response) => ({ status: response.status, body: await response.json() }));
    const text = await post("text/plain", JSON.stringify({ run_id: "r1", project_id: "p" }));
    assert.equal(text.status, 415);
    assertEnvelope(text.body, "UNSUPPORTED_MEDIA_TYPE");
    const large = await post("application/json", JSON.stringify({ run_id: "r".repeat(1024 * 1024 + 1) }));
    assert.equal(large.status, 413);
    assertEnvelope(large.body, "PAYLOAD_TOO_LARGE");
    const empty = await post("application/json", "");
    assert.equal(empty.status, 400);
    assertEnvelope(empty.body, "REQUEST_INVALID");
  });

  it("answers a 9 KB multipart body with too many parts with 413 MULTIPART_LIMIT, not a size message", async () => {
    const form = new FormData();
    for (let index = 0; index < 30; index++) form.append(`field${index}`, "x".repeat(300));
    const response = await fetch(`${svc.url}/api/seal/verify`, { method: "POST", body: form });
    const body = (await response.json()) as ErrorBody;
    assert.equal(response.status, 413);
    assertEnvelope(body, "MULTIPART_LIMIT");
    assert.doesNotMatch(body.error.message, /1048576|exceeds/);
    assert.match(body.error.message, /more than \d+ (parts|fields)/);
  });

  it("answers framework-level errors (a bad URL) in the envelope", async () => {
    const response = await fetch(`${svc.url}/api/%zz`);
    assert.equal(response.status, 400);
    assertEnvelope(
      await response.json(),
      "REQUEST_INVALID",
      response.headers.get("x-request-id") ?? undefined,
    );
  });
});

describe("503 during shutdown in the envelope", () => {
  it("answers a request that arrives on a kept-alive connection after draining began with 503 SHUTTING_DOWN", async () => {
    const svc = await startTestService();
    try {
      const { hostname, port } = new URL(svc.url);
      const socket = connect(Number(port), hostname);
      const responses: string[] = [];
      const next = () =>
        new Promise<string>((resolve) => {
          socket.once("data", (chunk) => resolve(chunk.toString("utf8")));
        });
      socket.write("GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n");
      responses.push(await next());
      svc.app.startDraining();
      socket.write("GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n");
      responses.push(await next());
      socket.destroy();
      const [first, second] = responses.map((raw) => parseResponses(raw)[0]);
      assert.equal(first?.status, 200);
      assert.equal(second?.status, 503);
      assertEnvelope(second?.body, "SHUTTING_DOWN", second?.headers["x-request-id"]);
      assert.equal(second?.headers["retry-after"], "1");
      assert.equal(second?.headers.connection, "close");
    } finally {
      await svc.close();
    }
  });
});

describe("seal verification off the event loop, bounded (issue 9 item 7)", () => {
  it("answers 503 VERIFY_BUSY with Retry-After when the workers and the queue are full, and health meanwhile", async () => {
    const pool = createSealVerifyPool({
      trustedKeys: [],
      workers: 1,
      queueMax: 1,
      workerUrl: new URL("./support/timed-verify-worker.ts", import.meta.url),
    });
    // counts the uploads that reached the pool, so the third is sent only once the first two hold it
    let accepted = 0;
    const sealVerifier = {
      verify: (upload: SvgUpload) => {
        accepted++;
        return pool.verify(upload);
      },
      close: () => pool.close(),
    };
    const svc = await startTestService({ sealVerifier });
    try {
      const upload = () =>
        fetch(`${svc.url}/api/seal/verify`, {
          method: "POST",
          headers: { "content-type": "image/svg+xml" },
          body: "1500",
        });
      const first = upload();
      const second = upload();
      while (accepted < 2) await new Promise((resolve) => setTimeout(resolve, 5));
      const third = await upload();
      assert.equal(third.status, 503);
      assert.equal(third.headers.get("retry-after"), "1");
      assertEnvelope(await third.json(), "VERIFY_BUSY", third.headers.get("x-request-id") ?? undefined);
      const health = await fetch(`${svc.url}/api/health`);
      assert.equal(health.status, 200, "the event loop answers while the worker is busy");
      for (const answer of await Promise.all([first, second])) {
        assert.equal(answer.status, 200);
        assert.equal(((await answer.json()) as { state: string }).state, "INVALID");
      }
    } finally {
      await svc.close();
      await sealVerifier.close();
    }
  });
});
