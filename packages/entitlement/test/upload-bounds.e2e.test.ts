// Issue 23 items 11 and 13: an upload is bounded in time (408 in the envelope, the connection
// closed) and a refused large upload is answered so that every client reads why (413). The real
// bin in its own process: in-process, the client's writes and the server's reads interleave on one
// event loop and the reset that cut Node's fetch off never happens.
import assert from "node:assert/strict";
import { connect } from "node:net";
import { after, before, describe, it } from "node:test";
import { createTempDir, type TempDir } from "@svc/testing";
import { type SpawnedService, spawnService } from "./spawn-service.ts";

/** Writes `head` on a raw connection and resolves with everything read until the server closes. */
function rawExchange(url: string, head: string, onConnect: (write: (text: string) => void) => void) {
  const { hostname, port } = new URL(url);
  return new Promise<{ text: string; closedAfterMs: number }>((resolve, reject) => {
    const started = performance.now();
    const socket = connect(Number(port), hostname, () => {
      socket.write(head);
      onConnect((text) => {
        if (socket.writable) socket.write(text);
      });
    });
    let text = "";
    socket.on("data", (chunk) => {
      text += chunk.toString("latin1");
    });
    socket.on("error", () => {});
    socket.on("close", () => resolve({ text, closedAfterMs: performance.now() - started }));
    setTimeout(() => {
      socket.destroy();
      reject(new Error(`still open after 30 s; read so far: ${text.slice(0, 200)}`));
    }, 30_000).unref();
  });
}

describe("seal upload bounds", () => {
  let service: SpawnedService;
  let dataDir: TempDir;
  before(async () => {
    dataDir = await createTempDir("svc-upload-bounds-");
    service = await spawnService({
      SVC_DATA_DIR: dataDir.path,
      // short bounds set through the environment: the settings are wired end to end
      SVC_UPLOAD_IDLE_TIMEOUT_MS: "1000",
      SVC_UPLOAD_TIMEOUT_MS: "3000",
    });
  });
  after(async () => {
    service.child.kill("SIGTERM");
    await service.exited;
    await dataDir.remove();
  });

  it("an 8 MiB upload through Node's fetch reads its 413 PAYLOAD_TOO_LARGE (no reset before the answer)", async () => {
    // on main, 3 of 5 such posts failed with EPIPE: repeat it
    for (let attempt = 0; attempt < 5; attempt++) {
      const response = await fetch(`${service.url}/api/seal/verify`, {
        method: "POST",
        headers: { "content-type": "image/svg+xml" },
        body: Buffer.alloc(8 * 1024 * 1024, 0x20),
      });
      assert.equal(response.status, 413);
      const body = (await response.json()) as { error: { code: string } };
      assert.equal(body.error.code, "PAYLOAD_TOO_LARGE");
    }
  });

  it("an 8 MiB multipart upload through Node's fetch reads its 413", async () => {
    const form = new FormData();
    form.append(
      "file",
      new Blob([Buffer.alloc(8 * 1024 * 1024, 0x20)], { type: "image/svg+xml" }),
      "seal.svg",
    );
    const response = await fetch(`${service.url}/api/seal/verify`, { method: "POST", body: form });
    assert.equal(response.status, 413);
    const body = (await response.json()) as { error: { code: string } };
    assert.equal(body.error.code, "PAYLOAD_TOO_LARGE");
  });

  it("an upload that goes silent is answered 408 REQUEST_TIMEOUT and closed at its idle bound", async () => {
    const { text, closedAfterMs } = await rawExchange(
      service.url,
      "POST /api/seal/verify HTTP/1.1\r\nHost: x\r\nContent-Type: image/svg+xml\r\nContent-Length: 1000\r\n\r\n<svg",
      () => {},
    );
    assert.match(text, /^HTTP\/1\.1 408 /);
    assert.match(text, /"code":"REQUEST_TIMEOUT"/);
    assert.match(text, /sent nothing for 1000 ms/);
    // idle bound 1 s; the generous ceiling only says the connection did not stay open
    assert.ok(closedAfterMs < 20_000, `closed after ${closedAfterMs} ms`);
  });

  it("a multipart upload that goes silent inside its file part is answered 408", async () => {
    const boundary = "b0undary";
    const { text } = await rawExchange(
      service.url,
      `POST /api/seal/verify HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\n` +
        `Content-Length: 100000\r\n\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="seal.svg"\r\n` +
        "Content-Type: image/svg+xml\r\n\r\n<svg",
      () => {},
    );
    assert.match(text, /^HTTP\/1\.1 408 /);
    assert.match(text, /"code":"REQUEST_TIMEOUT"/);
  });
});

describe("seal upload total bound", () => {
  let service: SpawnedService;
  let dataDir: TempDir;
  before(async () => {
    dataDir = await createTempDir("svc-upload-total-");
    // a generous idle bound, so only the total bound can end the trickle below
    service = await spawnService({
      SVC_DATA_DIR: dataDir.path,
      SVC_UPLOAD_IDLE_TIMEOUT_MS: "20000",
      SVC_UPLOAD_TIMEOUT_MS: "1000",
    });
  });
  after(async () => {
    service.child.kill("SIGTERM");
    await service.exited;
    await dataDir.remove();
  });

  it("an upload that keeps trickling is answered 408 and closed at its total bound", async () => {
    let timer: NodeJS.Timeout | undefined;
    const { text, closedAfterMs } = await rawExchange(
      service.url,
      "POST /api/seal/verify HTTP/1.1\r\nHost: x\r\nContent-Type: image/svg+xml\r\nContent-Length: 100000\r\n\r\n<svg",
      (write) => {
        // one byte every 200 ms: never idle for the 20 s idle bound, never done within the 1 s total
        timer = setInterval(() => write(" "), 200);
      },
    );
    clearInterval(timer);
    assert.match(text, /^HTTP\/1\.1 408 /);
    assert.match(text, /"code":"REQUEST_TIMEOUT"/);
    assert.match(text, /not received within 1000 ms/);
    assert.ok(closedAfterMs < 20_000, `closed after ${closedAfterMs} ms`);
  });
});
