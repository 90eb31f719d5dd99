// Issue 38 item 4: no unauthenticated byte is read. Authentication runs on the headers, before any
// body byte is read; a refused body is never read (the connection closes unread); every byte of a
// multipart upload is charged to its budget; every route has a request time limit.
import assert from "node:assert/strict";
import type { IncomingMessage } from "node:http";
import { connect, type Socket } from "node:net";
import { after, before, describe, it } from "node:test";
import { MAX_MULTIPART_BYTES } from "../src/http/read-svg-upload.ts";
import { RUN_COMPLETE_BODY_LIMIT } from "../src/routes/entitlement-routes.ts";
import { sealTestRun, startServiceWithRuns, type TestService } from "./app-harness.ts";

const SIXTEEN_MIB = 16 * 1024 * 1024;

/**
 * Sends a request's head and then its body in 64 KiB chunks, as fast as the connection takes
 * them, until an answer arrives or the body is sent; resolves with the answer and the bytes of
 * body handed to the socket by then.
 */
function sendUntilAnswered(url: string, head: string, bodyBytes: number) {
  const { hostname, port } = new URL(url);
  return new Promise<{ answer: string; sent: number }>((resolve) => {
    let sent = 0;
    let answer = "";
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const socket = connect(Number(port), hostname, () => {
      socket.write(head);
      const pump = () => {
        while (answer === "" && sent < bodyBytes && socket.writable) {
          sent += chunk.length;
          if (!socket.write(chunk)) return void socket.once("drain", pump);
        }
      };
      pump();
    });
    socket.setEncoding("latin1");
    socket.on("data", (text) => {
      answer += text;
    });
    socket.on("error", () => {});
    socket.on("close", () => resolve({ answer, sent }));
  });
}

const codeOf = (answer: string) => /"code":"([A-Z_]+)"/.exec(answer)?.[1];

describe("no unauthenticated byte is read (issue 38 item 4)", () => {
  let svc: TestService;
  let token: string;
  const sockets: Socket[] = [];
  before(async () => {
    ({ svc, token } = await startServiceWithRuns("alice", 5, { requestTimeoutMs: 1_500 }));
    // the connection of each request (fetch reuses kept-alive ones)
    svc.app.server.on("request", (request: IncomingMessage) => sockets.push(request.socket));
  });
  after(() => svc.close());

  /** The server side of the last request's connection, once it has closed. */
  async function lastServerSocket(): Promise<Socket> {
    const socket = sockets.at(-1);
    assert.ok(socket, "the server saw the connection");
    if (!socket.destroyed) await new Promise((resolve) => socket.once("close", resolve));
    return socket;
  }

  it("an unauthenticated 16 MiB POST to run_complete is refused 401 before its body is read", async () => {
    assert.equal(
      RUN_COMPLETE_BODY_LIMIT,
      SIXTEEN_MIB,
      "the route's limit admits the body once authenticated",
    );
    const response = await fetch(`${svc.url}/api/entitlement/run_complete`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: Buffer.alloc(SIXTEEN_MIB - 1024, 0x20),
    });
    assert.equal(response.status, 401);
    assert.equal(response.headers.get("connection"), "close");
    assert.equal(((await response.json()) as { error: { code: string } }).error.code, "AUTH_MISSING");
    const socket = await lastServerSocket();
    // the head and what came with it: Node reads at most a few 64 KiB buffers before the answer
    assert.ok(socket.bytesRead < 1024 * 1024, `the server read ${socket.bytesRead} bytes`);
  });

  it("a client still sending reads the 401 before it finished sending; one answer, then the connection ends", async () => {
    const { answer, sent } = await sendUntilAnswered(
      svc.url,
      `POST /api/entitlement/run_complete HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer not.a.token\r\nContent-Type: application/json\r\nContent-Length: ${SIXTEEN_MIB}\r\n\r\n`,
      SIXTEEN_MIB,
    );
    assert.match(answer, /^HTTP\/1\.1 401 /);
    assert.equal(answer.match(/HTTP\/1\.1 /g)?.length, 1, answer);
    assert.ok(sent < SIXTEEN_MIB, `the answer came after ${sent} of ${SIXTEEN_MIB} bytes`);
    const socket = await lastServerSocket();
    assert.ok(socket.bytesRead < 1024 * 1024, `the server read ${socket.bytesRead} bytes`);
  });

  it("an admin route refuses a wrong X-SVC-ADMIN-TOKEN before reading its body", async () => {
    const response = await fetch(`${svc.url}/api/entitlement/issue`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-svc-admin-token": "wrong-token-0123456789" },
      body: Buffer.alloc(SIXTEEN_MIB, 0x20),
    });
    assert.equal(response.status, 403);
    assert.equal(((await response.json()) as { error: { code: string } }).error.code, "ADMIN_TOKEN_INVALID");
    const socket = await lastServerSocket();
    assert.ok(socket.bytesRead < 1024 * 1024, `the server read ${socket.bytesRead} bytes`);
  });

  it("redeem refuses an upload without a token before reading it", async () => {
    const { answer, sent } = await sendUntilAnswered(
      svc.url,
      `POST /api/entitlement/redeem_seal_once HTTP/1.1\r\nHost: x\r\nContent-Type: image/svg+xml\r\nContent-Length: ${SIXTEEN_MIB}\r\n\r\n`,
      SIXTEEN_MIB,
    );
    assert.match(answer, /^HTTP\/1\.1 401 /);
    assert.ok(sent < SIXTEEN_MIB);
  });

  it("an authenticated caller's run_complete is still read and answered", async () => {
    const sealed = await sealTestRun(svc, token, { run_id: "run-authenticated", project_id: "p" });
    assert.equal(typeof sealed.seal.seal_svg, "string");
  });

  describe("every byte of a multipart upload is charged to one budget", () => {
    let sealSvg: string;
    before(async () => {
      sealSvg = (await sealTestRun(svc, token, { run_id: "run-multipart", project_id: "p" })).seal.seal_svg;
    });

    const boundary = "svc-boundary-38";
    const filePart = (svg: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="seal.svg"\r\nContent-Type: image/svg+xml\r\n\r\n${svg}\r\n`;
    const textPart = (name: string, value: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const upload = async (body: string) => {
      const response = await fetch(`${svc.url}/api/seal/verify`, {
        method: "POST",
        headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
        body,
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const over = MAX_MULTIPART_BYTES + 1;

    it("the seal alone verifies (the control)", async () => {
      const answer = await upload(`${filePart(sealSvg)}--${boundary}--\r\n`);
      assert.equal(answer.status, 200);
      assert.equal(answer.body.state, "VERIFIED");
    });

    it("a preamble that takes the body over the bound is 413 PAYLOAD_TOO_LARGE", async () => {
      const answer = await upload(`${"p".repeat(over)}\r\n${filePart(sealSvg)}--${boundary}--\r\n`);
      assert.equal(answer.status, 413, JSON.stringify(answer.body));
      assert.equal((answer.body.error as { code: string }).code, "PAYLOAD_TOO_LARGE");
      assert.match((answer.body.error as { message: string }).message, /multipart body exceeds/);
    });

    it("an epilogue that takes the body over the bound is 413", async () => {
      const answer = await upload(`${filePart(sealSvg)}--${boundary}--\r\n${"e".repeat(over)}`);
      assert.equal(answer.status, 413, JSON.stringify(answer.body));
      assert.equal((answer.body.error as { code: string }).code, "PAYLOAD_TOO_LARGE");
    });

    it("text fields that take the body over the bound are 413", async () => {
      const third = "t".repeat(Math.ceil(over / 3));
      const fields = ["a", "b", "c"].map((name) => textPart(name, third)).join("");
      const answer = await upload(`${fields}${filePart(sealSvg)}--${boundary}--\r\n`);
      assert.equal(answer.status, 413, JSON.stringify(answer.body));
      assert.equal((answer.body.error as { code: string }).code, "PAYLOAD_TOO_LARGE");
    });
  });

  it("an authenticated JSON body trickling a byte at a time is cut with 408 within the request limit", async () => {
    const { hostname, port } = new URL(svc.url);
    const started = performance.now();
    const answer = await new Promise<string>((resolve) => {
      const socket = connect(Number(port), hostname, () => {
        socket.write(
          `POST /api/entitlement/consume HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{`,
        );
      });
      // a byte every 5 s, as the attack did: the first after the limit has passed
      const trickle = setInterval(() => socket.writable && socket.write(" "), 5_000);
      let text = "";
      socket.setEncoding("latin1");
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
    assert.equal(codeOf(answer), "REQUEST_TIMEOUT");
    assert.ok(elapsed >= 1_400 && elapsed < 3_500, `cut after ${Math.round(elapsed)} ms (limit 1500 ms)`);
  });
});
