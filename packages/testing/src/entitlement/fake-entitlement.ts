import { once } from "node:events";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  generateSigningKey,
  isClaimStrength,
  issueSealBundle,
  newSealId,
  runCompleteSchema,
  runParamsSchema,
  runStartSchema,
  type SigningKey,
  sealBundleResponseOf,
  type TrustedKey,
  toTrustedKey,
} from "@svc/core";

// Requests are checked with the contract's own schemas (core/src/contracts), as the real service
// does; answers are proven against the same schemas by the contract suite beside this file.
const REQUEST_SCHEMAS: Record<
  string,
  typeof runParamsSchema | typeof runStartSchema | typeof runCompleteSchema
> = {
  "/api/entitlement/check": runParamsSchema,
  "/api/entitlement/consume": runParamsSchema,
  "/api/entitlement/run_start": runStartSchema,
  "/api/entitlement/run_complete": runCompleteSchema,
};

/**
 * A small in-process entitlement service speaking docs/contracts/entitlement-http.md's lifecycle, for runner
 * tests that must not depend on the real service (it runs the same contract suite as the real one,
 * entitlement-contract-suite.ts): balance per principal (the bearer token is the
 * principal), idempotent consume/run_start/run_complete, real Ed25519 seals via @svc/core.
 */
export interface FakeEntitlement {
  readonly url: string;
  readonly calls: { path: string; authorization: string | undefined; body: Record<string, unknown> }[];
  readonly trustedKey: TrustedKey;
  grant(principal: string, runs: number): void;
  /** Paths answered with a dropped connection (simulates an unreachable step). */
  readonly unreachable: Set<string>;
  close(): Promise<void>;
}

/** Starts the fake on loopback, port 0. */
export async function startFakeEntitlement(
  options: { runs?: number; tokens?: string[] } = {},
): Promise<FakeEntitlement> {
  const key: SigningKey = generateSigningKey();
  const consumed = new Map<
    string,
    { principal: string; params: string; consumed_at: string; ledger_entry_id: number }
  >();
  const started = new Map<string, { fields: string }>();
  const completed = new Map<string, { hashes: string; response: unknown }>();
  // Balance per principal; a principal seen for the first time starts with `options.runs`.
  const balances = new Map<string, number>();
  const balanceOf = (principal: string) => {
    if (!balances.has(principal)) balances.set(principal, options.runs ?? 0);
    return balances.get(principal) ?? 0;
  };
  const state = {
    calls: [] as FakeEntitlement["calls"],
    unreachable: new Set<string>(),
  };
  // Any `token-<principal>` is a valid identity; anything else is refused with 401.
  const isValid = (token: string) => /^token-[a-z0-9._@-]+$/.test(token);
  const server: Server = createServer(async (req, res) => {
    const path = req.url ?? "";
    const body = await readJson(req);
    state.calls.push({ path, authorization: req.headers.authorization, body });
    if (state.unreachable.has(path)) {
      req.socket.destroy();
      return;
    }
    const send = (status: number, value: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(value));
    };
    const fail = (status: number, code: string, message: string) =>
      send(status, { error: { code, message, request_id: "req-test" } });
    const token = req.headers.authorization?.replace(/^Bearer /, "") ?? "";
    if (!isValid(token)) return fail(401, "AUTH_MALFORMED", "the bearer token is not a well-formed JWT");
    const schema = REQUEST_SCHEMAS[path];
    if (schema === undefined) return fail(404, "NOT_FOUND", path);
    const checked = schema.safeParse(body);
    if (!checked.success)
      return fail(
        400,
        "REQUEST_INVALID",
        checked.error.issues.map((issue) => `field ${issue.path.join(".")}: ${issue.message}`).join("; "),
      );
    const principal = token.replace(/^token-/, "");
    const runId = String(body.run_id);
    const params = JSON.stringify([body.run_id, body.project_id, body.mode, body.module_id]);
    const prior = consumed.get(runId);
    if (path === "/api/entitlement/check" || path === "/api/entitlement/consume") {
      if (prior && (prior.principal !== principal || prior.params !== params)) {
        return fail(409, "RUN_ID_CONFLICT", "run_id already used");
      }
      if (!prior && balanceOf(principal) <= 0) return fail(402, "ENTITLEMENT_EXHAUSTED", "no runs left");
      if (path.endsWith("check")) {
        return send(200, {
          run_id: runId,
          principal,
          available: true,
          mode: body.mode,
          runs_remaining: balanceOf(principal),
          already_consumed: Boolean(prior),
        });
      }
      let entry = prior;
      if (!entry) {
        balances.set(principal, balanceOf(principal) - 1);
        entry = {
          principal,
          params,
          consumed_at: "2026-01-01T00:00:00Z",
          ledger_entry_id: consumed.size + 1,
        };
        consumed.set(runId, entry);
      }
      return send(200, {
        run_id: runId,
        principal,
        mode: body.mode,
        consumed_at: entry.consumed_at,
        ledger_entry_id: entry.ledger_entry_id,
        runs_remaining: balanceOf(principal),
      });
    }
    if (path === "/api/entitlement/run_start") {
      if (!prior) return fail(422, "LIFECYCLE_OUT_OF_ORDER", "not consumed");
      const fields = JSON.stringify(body);
      const seen = started.get(runId);
      if (seen && seen.fields !== fields) return fail(409, "RUN_START_CONFLICT", "different fields");
      if (!seen) started.set(runId, { fields });
      return send(200, { run_id: runId, state: "started", started_at: "2026-01-01T00:00:01Z" });
    }
    if (path === "/api/entitlement/run_complete") {
      const start = started.get(runId);
      if (!prior || !start) return fail(422, "LIFECYCLE_OUT_OF_ORDER", "not started");
      const hashes = JSON.stringify([body.outputs_sha256, body.run_manifest_sha256]);
      const done = completed.get(runId);
      if (done && done.hashes !== hashes) return fail(409, "RUN_COMPLETE_CONFLICT", "different hashes");
      if (done) return send(200, done.response);
      // biome-ignore lint/suspicious/noExplicitAny: test double reads back what run_start stored
      const startBody = JSON.parse(start.fields) as any;
      const bundle = issueSealBundle(
        {
          seal_id: newSealId(),
          principal,
          run_id: runId,
          project_id: startBody.project_id,
          mode: startBody.mode,
          module_id: startBody.module_id,
          category_id: startBody.category_id,
          image: startBody.image,
          inputs_sha256: startBody.inputs_sha256,
          outputs_sha256: String(body.outputs_sha256),
          run_manifest_sha256: String(body.run_manifest_sha256),
          issued_at: "2026-01-01T00:00:02Z",
          issuer: "fake-entitlement",
          verify_url: null,
          ...(isClaimStrength(body.claim_strength) ? { claim_strength: body.claim_strength } : {}),
        },
        key,
      );
      const response = {
        run_id: runId,
        state: "completed",
        seal: sealBundleResponseOf(bundle),
      };
      completed.set(runId, { hashes, response });
      return send(200, response);
    }
    fail(404, "NOT_FOUND", path);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get calls() {
      return state.calls;
    },
    trustedKey: toTrustedKey(key.publicKey),
    grant: (principal: string, runs: number) => {
      balances.set(principal, balanceOf(principal) + runs);
    },
    unreachable: state.unreachable,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
  } catch {
    return {};
  }
}
