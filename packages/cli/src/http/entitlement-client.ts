import {
  balanceResponseSchema,
  issueResponseSchema,
  ledgerResponseSchema,
  principalsResponseSchema,
  revokeResponseSchema,
  sealVerifyResponseSchema,
  trustedKeysResponseSchema,
} from "@svc/core";
import type { z } from "zod";
import { callJson, type ServiceTarget } from "./service-call.ts";

/** The entitlement service's HTTP API as `svc` uses it, every answer checked with the service's schemas. */
export interface EntitlementClient {
  balance(identityToken: string): Promise<z.infer<typeof balanceResponseSchema>>;
  issue(
    adminToken: string,
    grant: {
      principal: string;
      runs: number;
      mode: "standard" | "deep";
      reason?: string;
      idempotency_key?: string;
    },
  ): Promise<z.infer<typeof issueResponseSchema>>;
  revoke(
    adminToken: string,
    body: { seal_id: string; reason: string },
  ): Promise<z.infer<typeof revokeResponseSchema>>;
  ledger(
    adminToken: string,
    query: { principal?: string; after?: number; limit?: number },
  ): Promise<z.infer<typeof ledgerResponseSchema>>;
  principals(
    adminToken: string,
    query: { after?: string; limit?: number },
  ): Promise<z.infer<typeof principalsResponseSchema>>;
  verifySeal(svg: string): Promise<z.infer<typeof sealVerifyResponseSchema>>;
  keys(): Promise<z.infer<typeof trustedKeysResponseSchema>>;
}

function queryString(query: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** Builds the client for one base URL; `authHint` tells the user what to fix when credentials are refused. */
export function createEntitlementClient(baseUrl: string, authHint: string): EntitlementClient {
  const target: ServiceTarget = { service: "entitlement", baseUrl, authHint };
  const admin = (token: string) => ({ "x-svc-admin-token": token });
  return {
    balance: (token) =>
      callJson(target, "/api/entitlement/balance", balanceResponseSchema, {
        headers: { authorization: `Bearer ${token}` },
      }),
    issue: (token, grant) =>
      callJson(target, "/api/entitlement/issue", issueResponseSchema, { headers: admin(token), json: grant }),
    revoke: (token, body) =>
      callJson(target, "/api/seal/revoke", revokeResponseSchema, { headers: admin(token), json: body }),
    ledger: (token, query) =>
      callJson(target, `/api/admin/ledger${queryString(query)}`, ledgerResponseSchema, {
        headers: admin(token),
      }),
    principals: (token, query) =>
      callJson(target, `/api/admin/principals${queryString(query)}`, principalsResponseSchema, {
        headers: admin(token),
      }),
    verifySeal: (svg) =>
      callJson(target, "/api/seal/verify", sealVerifyResponseSchema, {
        raw: { body: svg, contentType: "image/svg+xml" },
      }),
    keys: () => callJson(target, "/api/seal/keys", trustedKeysResponseSchema),
  };
}
