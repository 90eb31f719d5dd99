import assert from "node:assert/strict";
import http from "node:http";
import type net from "node:net";
import { test } from "node:test";
import { KeepAliveConnection } from "./keep-alive-connection.ts";

/** A real node:http server on loopback; `answer` writes each response. */
async function serve(
  t: { after: (fn: () => Promise<void>) => void },
  answer: (request: http.IncomingMessage, body: string, response: http.ServerResponse) => void,
): Promise<string> {
  const server = http.createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => {
      body += chunk;
    });
    request.on("end", () => answer(request, body, response));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  t.after(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
}

test("sends each POST with its headers and JSON body on one kept-alive connection and resolves with the status", {
  timeout: 30_000,
}, async (t) => {
  const seen: { auth: string | undefined; body: string; socket: net.Socket }[] = [];
  const url = await serve(t, (request, body, response) => {
    seen.push({ auth: request.headers.authorization, body, socket: request.socket });
    // framed by Content-Length, as the service's answers are; 3,000+ bytes of it two-byte UTF-8
    const json = JSON.stringify({ n: seen.length, text: "é".repeat(seen.length * 3000) });
    response.writeHead(seen.length === 2 ? 402 : 200, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(json),
    });
    response.end(json);
  });
  const connection = await KeepAliveConnection.open(url, { authorization: "Bearer t0" });
  t.after(() => connection.close());
  assert.equal(await connection.postJson("/x", JSON.stringify({ run_id: "r1", note: "µ" })), 200);
  assert.equal(await connection.postJson("/x", "{}"), 402);
  assert.equal(await connection.postJson("/x", "[]"), 200);
  assert.deepEqual(
    seen.map(({ auth, body }) => [auth, body]),
    [
      ["Bearer t0", '{"run_id":"r1","note":"µ"}'],
      ["Bearer t0", "{}"],
      ["Bearer t0", "[]"],
    ],
  );
  assert.equal(new Set(seen.map(({ socket }) => socket)).size, 1, "one connection for every request");
});

test("refuses an answer it cannot frame (chunked) instead of guessing where it ends", {
  timeout: 30_000,
}, async (t) => {
  const url = await serve(t, (_request, _body, response) => {
    // no Content-Length: node:http frames it with Transfer-Encoding: chunked
    response.writeHead(200, { "content-type": "application/json" });
    response.write("{");
    response.end("}");
  });
  const connection = await KeepAliveConnection.open(url, {});
  t.after(() => connection.close());
  await assert.rejects(connection.postJson("/x", "{}"), /not framed by Content-Length/);
  await assert.rejects(connection.postJson("/x", "{}"), /not framed by Content-Length/);
});

test("rejects the request in flight when the server closes the connection", {
  timeout: 30_000,
}, async (t) => {
  const url = await serve(t, (request) => request.socket.destroy());
  const connection = await KeepAliveConnection.open(url, {});
  t.after(() => connection.close());
  await assert.rejects(connection.postJson("/x", "{}"), /closed the connection/);
});
