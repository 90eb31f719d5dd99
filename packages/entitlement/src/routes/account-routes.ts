import {
  balanceResponseSchema,
  ledgerQuerySchema,
  ledgerResponseSchema,
  principalsQuerySchema,
  principalsResponseSchema,
} from "@svc/core";
import type { FastifyInstance } from "fastify";
import type { AppDeps } from "../app-deps.ts";
import { requireAdmin } from "../http/admin-tokens.ts";
import { parseStorableBody } from "../http/parse-storable-body.ts";
import { describeRoute } from "../http/route-schema.ts";
import { authenticate, callerOf } from "./entitlement-routes.ts";

/** Read-only views of the ledger: the caller's balance and, for admins, principals and ledger lines. */
export function registerAccountRoutes(app: FastifyInstance, deps: AppDeps): void {
  const admin = requireAdmin(deps.adminTokens);

  app.get(
    "/api/entitlement/balance",
    {
      onRequest: authenticate(deps),
      schema: describeRoute({
        summary: "The caller's runs left, by mode",
        tags: ["entitlement"],
        auth: "bearer",
        response: balanceResponseSchema,
        errors: [401, 403],
      }),
    },
    async (request) => {
      const { principal } = callerOf(request);
      const [standard, deep] = await Promise.all([
        deps.store.getBalance(principal, "standard"),
        deps.store.getBalance(principal, "deep"),
      ]);
      return { principal, balances: { standard, deep } };
    },
  );

  app.get(
    "/api/admin/principals",
    {
      onRequest: admin,
      schema: describeRoute({
        summary: "Every principal's balances (admin), paged by principal: pass next_after as after",
        tags: ["admin"],
        auth: "admin",
        response: principalsResponseSchema,
        errors: [400, 403],
      }),
    },
    async (request) => {
      const query = parseStorableBody(principalsQuerySchema, request.query);
      const principals = await deps.store.listPrincipalBalances({ after: query.after, limit: query.limit });
      const last = principals.at(-1);
      return {
        principals,
        next_after: principals.length === query.limit && last ? last.principal : null,
      };
    },
  );

  app.get(
    "/api/admin/ledger",
    {
      onRequest: admin,
      schema: describeRoute({
        summary: "Ledger lines (admin), oldest first, newest last; paged by id: pass next_after as after",
        tags: ["admin"],
        auth: "admin",
        response: ledgerResponseSchema,
        errors: [400, 403],
      }),
    },
    async (request) => {
      const query = parseStorableBody(ledgerQuerySchema, request.query);
      const entries = await deps.store.listLedgerPage({
        principal: query.principal,
        afterId: query.after,
        limit: query.limit,
      });
      const last = entries.at(-1);
      return { entries, next_after: entries.length === query.limit && last ? last.id : null };
    },
  );
}
