import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { describeEntitlementContract } from "./entitlement-contract-suite.ts";
import { startFakeEntitlement } from "./fake-entitlement.ts";

// The contract suite run against a drifted fake: a loopback proxy in front of the runner tests'
// fake deletes one field of one step's answer, as if it had been deleted from the fake's code.
// contract-suite-catches-drift.e2e.test.ts runs this file in a child `node --test` and expects it to
// FAIL, which is what proves the suite would catch the drift (issue 15 "Done when"). The file is
// not named *.test.ts so the normal test run does not pick it up.
//
// SVC_CONTRACT_DROP=<step>:<dotted.path>, e.g. `consume:ledger_entry_id`; empty = drop nothing.

const [step, path] = (process.env.SVC_CONTRACT_DROP ?? "").split(":");

function drop(body: unknown, dotted: string): unknown {
  const keys = dotted.split(".");
  let node = body as Record<string, unknown> | null;
  for (const key of keys.slice(0, -1)) node = (node?.[key] ?? null) as Record<string, unknown> | null;
  const last = keys.at(-1);
  if (node !== null && typeof node === "object" && last !== undefined) delete node[last];
  return body;
}

describeEntitlementContract(`the fake with ${step ?? "nothing"}:${path ?? ""} dropped`, async () => {
  const fake = await startFakeEntitlement();
  const target = new URL(fake.url);
  const proxy = createServer((incoming, outgoing) => {
    const forwarded = request(
      {
        host: target.hostname,
        port: target.port,
        path: incoming.url,
        method: incoming.method,
        headers: incoming.headers,
      },
      async (answer) => {
        const chunks: Buffer[] = [];
        for await (const chunk of answer) chunks.push(chunk as Buffer);
        let text = Buffer.concat(chunks).toString("utf8");
        if (step && path && incoming.url === `/api/entitlement/${step}` && answer.statusCode === 200)
          text = JSON.stringify(drop(JSON.parse(text), path));
        outgoing.writeHead(answer.statusCode ?? 502, { "content-type": "application/json" });
        outgoing.end(text);
      },
    );
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  const { port } = proxy.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    tokenFor: async (principal) => `token-${principal}`,
    grant: async (principal, runs) => fake.grant(principal, runs),
    close: async () => {
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
      await fake.close();
    },
  };
});
