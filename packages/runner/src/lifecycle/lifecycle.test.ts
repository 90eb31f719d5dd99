import assert from "node:assert/strict";
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "node:test";
import { startFakeMetadataServer } from "@svc/testing";
import { RunnerError } from "../runner-error.ts";
import { EntitlementClient } from "./entitlement-client.ts";
import { reportUsage } from "./metering.ts";
import { cloudTokenSource, devTokenSource } from "./token-source.ts";

async function serve(handler: (path: string, body: string, n: number) => [number, unknown] | "drop") {
  let n = 0;
  const seen: { path: string; body: string }[] = [];
  const server = createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    seen.push({ path: req.url ?? "", body });
    const answer = handler(req.url ?? "", body, ++n);
    if (answer === "drop") return req.socket.destroy();
    res.writeHead(answer[0], { "content-type": "application/json" });
    res.end(JSON.stringify(answer[1]));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    seen,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

const params = { run_id: "r1", project_id: "p", mode: "standard" as const, module_id: "computational" };
const client = (url: string, timeoutMs = 5000) =>
  new EntitlementClient({ baseUrl: url, audience: url, tokens: devTokenSource("tok", undefined), timeoutMs });

const checkAnswer = {
  run_id: "r1",
  principal: "dev@example.com",
  available: true,
  mode: "standard",
  runs_remaining: 4,
  already_consumed: false,
};
const consumeAnswer = {
  run_id: "r1",
  principal: "dev@example.com",
  mode: "standard",
  consumed_at: "2026-11-23T10:00:00Z",
  ledger_entry_id: 7,
  runs_remaining: 3,
};

test("transient failures (dropped connection, 503) are retried until the call succeeds", async () => {
  const server = await serve((_p, _b, n) =>
    n === 1
      ? "drop"
      : n === 2
        ? [503, { error: { code: "X" } }]
        : [200, { ...checkAnswer, runs_remaining: n }],
  );
  try {
    assert.deepEqual(await client(server.url).check(params), { ...checkAnswer, runs_remaining: 3 });
  } finally {
    server.close();
  }
});

test("an answer that breaks the contract stops the run with ENTITLEMENT_CONTRACT_VIOLATION naming the field, unretried", async () => {
  const broken: [string, unknown, RegExp][] = [
    ["wrong type", { ...consumeAnswer, ledger_entry_id: "7" }, /ledger_entry_id/],
    ["missing field", { ...consumeAnswer, runs_remaining: undefined }, /runs_remaining/],
    ["mode outside the enum", { ...consumeAnswer, mode: "turbo" }, /mode/],
    ["not an object", [consumeAnswer], /\(body\)/],
  ];
  for (const [what, answer, field] of broken) {
    const server = await serve(() => [200, answer]);
    try {
      await assert.rejects(
        client(server.url).consume(params),
        (error: unknown) =>
          error instanceof RunnerError &&
          error.code === "ENTITLEMENT_CONTRACT_VIOLATION" &&
          field.test(error.message) &&
          error.exitCode === 1,
        what,
      );
      assert.equal(server.seen.length, 1, `${what}: a contract violation is not retried`);
    } finally {
      server.close();
    }
  }
  const valid = await serve(() => [200, consumeAnswer]);
  try {
    assert.deepEqual(await client(valid.url).consume(params), consumeAnswer);
  } finally {
    valid.close();
  }
});

test("a 200 whose body is not JSON is a contract violation", async () => {
  const server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.end("<html>proxy login</html>");
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await assert.rejects(client(url).check(params), { code: "ENTITLEMENT_CONTRACT_VIOLATION" });
  } finally {
    server.closeAllConnections();
    server.close();
  }
});

test("refusals map to their cause and are not retried", async () => {
  for (const [status, code] of [
    [401, "ENTITLEMENT_UNAUTHORIZED"],
    [402, "ENTITLEMENT_EXHAUSTED"],
    [403, "ENTITLEMENT_FORBIDDEN"],
    [409, "RUN_ID_CONFLICT"],
    [422, "ENTITLEMENT_REJECTED"],
  ] as const) {
    const server = await serve(() => [status, { error: { code: "C", message: "m", request_id: "r" } }]);
    try {
      await assert.rejects(
        client(server.url).consume(params),
        (error: unknown) => error instanceof RunnerError && error.code === code,
      );
      assert.equal(server.seen.length, 1);
    } finally {
      server.close();
    }
  }
});

test("an unreachable service fails with ENTITLEMENT_UNREACHABLE once the budget is spent", async () => {
  const server = await serve(() => "drop");
  try {
    const started = Date.now();
    await assert.rejects(
      client(server.url, 800).runComplete({ run_id: "r", outputs_sha256: "a", run_manifest_sha256: "b" }),
      /ENTITLEMENT|unreachable/,
    );
    assert.ok(Date.now() - started < 3000);
    assert.ok(server.seen.length >= 2, "retried");
  } finally {
    server.close();
  }
});

test("the cloud token source sends the audience, format=full and Metadata-Flavor: Google", async () => {
  const metadata = await startFakeMetadataServer();
  try {
    const token = await cloudTokenSource(metadata.url).getToken("https://ent.example.com");
    assert.equal(token, "token-for-https://ent.example.com");
    assert.deepEqual(metadata.requests, [
      {
        path: "/computeMetadata/v1/instance/service-accounts/default/identity",
        audience: "https://ent.example.com",
        format: "full",
        metadataFlavor: "Google",
      },
    ]);
    const refused = await fetch(
      `${metadata.url}/computeMetadata/v1/instance/service-accounts/default/identity?audience=x`,
    );
    assert.equal(refused.status, 403, "the double refuses requests without the header, like the real server");
  } finally {
    await metadata.close();
  }
});

test("metering posts one usage unit and records a refusal without throwing", async () => {
  const server = await serve((path) => (path === "/report" ? [500, { e: 1 }] : [404, {}]));
  try {
    const record = await reportUsage({
      agentUrl: server.url,
      metric: "standard_audit_run",
      startTime: "2026-01-01T00:00:00Z",
      endTime: "2026-01-01T00:00:01Z",
    });
    assert.equal(record.reported, false);
    assert.equal(record.status, 500);
    assert.deepEqual(JSON.parse(server.seen[0]?.body ?? "{}"), {
      name: "standard_audit_run",
      startTime: "2026-01-01T00:00:00Z",
      endTime: "2026-01-01T00:00:01Z",
      value: { int64Value: 1 },
      labels: {},
    });
    assert.equal(
      (await reportUsage({ agentUrl: null, metric: "m", startTime: "", endTime: "" })).configured,
      false,
    );
  } finally {
    server.close();
  }
});
