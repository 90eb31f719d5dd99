import {
  consistencyQuerySchema,
  consistencyResponseSchema,
  inclusionQuerySchema,
  inclusionResponseSchema,
  logEntriesQuerySchema,
  logEntriesResponseSchema,
  logOriginOf,
} from "@svc/core";
import type { FastifyInstance } from "fastify";
import type { AppDeps } from "../app-deps.ts";
import { parseStorableBody } from "../http/parse-storable-body.ts";
import { describeRoute } from "../http/route-schema.ts";
import { proveConsistency, proveLeaf, type SealLogSigner, signedCheckpointAt } from "../log/seal-log.ts";

const tags = ["log"];

/** The log's signer: named by the issuer, signing with the current seal key (rotates with it). */
export function sealLogSignerOf(deps: AppDeps): SealLogSigner {
  return { origin: logOriginOf(deps.issuerName()), key: deps.signingKey };
}

/**
 * The seal log's public read endpoints (issue 30 items 2 and 3): the latest C2SP checkpoint,
 * inclusion and consistency proofs, and the leaves themselves. No authentication: the log is
 * public so anyone can witness it.
 */
export function registerLogRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.get(
    "/api/log/checkpoint",
    {
      schema: {
        ...describeRoute({
          summary: "The latest checkpoint of the seal log: a C2SP tlog-checkpoint signed note (text/plain)",
          tags,
          errors: [],
        }),
        produces: ["text/plain"],
      },
    },
    async (_request, reply) => {
      const signer = sealLogSignerOf(deps);
      const note = await signedCheckpointAt(deps.store, signer, await deps.store.logSize());
      return reply.type("text/plain; charset=utf-8").header("cache-control", "no-store").send(note);
    },
  );

  app.get(
    "/api/log/proof/inclusion",
    {
      schema: describeRoute({
        summary:
          "Inclusion proof of a leaf (by leaf_index, or by seal_id and event) in the tree of tree_size leaves (default current), with that tree's checkpoint",
        tags,
        response: inclusionResponseSchema,
        errors: [400, 404],
      }),
    },
    async (request) => {
      const query = parseStorableBody(inclusionQuerySchema, request.query ?? {});
      const leaf =
        query.leaf_index !== undefined
          ? { index: query.leaf_index }
          : { sealId: query.seal_id as string, event: query.event };
      return proveLeaf(deps.store, sealLogSignerOf(deps), leaf, query.tree_size);
    },
  );

  app.get(
    "/api/log/proof/consistency",
    {
      schema: describeRoute({
        summary: "Consistency proof (RFC 9162 §2.1.4) from tree size `from` to `to` (default current)",
        tags,
        response: consistencyResponseSchema,
        errors: [400],
      }),
    },
    async (request) => {
      const query = parseStorableBody(consistencyQuerySchema, request.query ?? {});
      return proveConsistency(deps.store, sealLogSignerOf(deps), query.from, query.to);
    },
  );

  app.get(
    "/api/log/entries",
    {
      schema: describeRoute({
        summary:
          "Leaves of the seal log from `start`, oldest first, at most `limit` (1-1000): pass next_start as start",
        tags,
        response: logEntriesResponseSchema,
        errors: [400],
      }),
    },
    async (request) => {
      const query = parseStorableBody(logEntriesQuerySchema, request.query ?? {});
      const entries = await deps.store.logEntries(query.start, query.limit);
      const last = entries.at(-1);
      return {
        entries,
        next_start: entries.length === query.limit && last ? last.leaf_index + 1 : null,
      };
    },
  );
}
