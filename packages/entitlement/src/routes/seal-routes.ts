import { type SealVerification, verifySealSvg } from "@svc/core";
import type { FastifyInstance } from "fastify";
import type { AppDeps } from "../app-deps.ts";
import {
  redeemResponseSchema,
  sealVerifyResponseSchema,
  trustedKeysResponseSchema,
} from "../domain/response-schemas.ts";
import { EntitlementError } from "../errors/entitlement-error.ts";
import type { ServiceMetrics } from "../http/metrics.ts";
import { readSvgUpload } from "../http/read-svg-upload.ts";
import { describeRoute } from "../http/route-schema.ts";
import { authenticate, callerOf } from "./entitlement-routes.ts";

const UPLOAD_TYPES = ["multipart/form-data", "image/svg+xml"];

/** Seal verification, redemption and the published keys (spec §4.1, domain notes "Seal"). */
export function registerSealRoutes(app: FastifyInstance, deps: AppDeps, metrics: ServiceMetrics): void {
  const verifyUpload = async (svg: Buffer): Promise<SealVerification> => {
    const result = verifySealSvg(svg, deps.trustedKeys);
    metrics.sealVerifications.inc({ state: result.state });
    // hostile or broken input (not XML, DOCTYPE/entities, floods) is the client's fault: 400
    const readable = result.checks.find((check) => check.name === "svg_readable");
    if (readable !== undefined && !readable.ok)
      throw new EntitlementError("SVG_UNREADABLE", `field file: ${readable.detail}`);
    return result;
  };

  app.get(
    "/api/seal/keys",
    {
      schema: describeRoute({
        summary: "Public keys that sign seals, with key ids and validity windows (offline verifiers)",
        tags: ["seal"],
        response: trustedKeysResponseSchema,
        errors: [],
      }),
    },
    async () => ({
      keys: deps.trustedKeys.map((key) => ({
        key_id: key.key_id,
        public_key_pem: key.public_key_pem,
        not_before: key.not_before ?? null,
        not_after: key.not_after ?? null,
      })),
    }),
  );

  app.post(
    "/api/seal/verify",
    {
      schema: describeRoute({
        summary:
          "Verify an uploaded seal.svg (multipart field `file`, or a raw image/svg+xml body; max 1 MiB)",
        tags: ["seal"],
        consumes: UPLOAD_TYPES,
        response: sealVerifyResponseSchema,
        errors: [400, 413, 415],
      }),
    },
    async (request) => {
      const result = await verifyUpload(await readSvgUpload(request));
      const sealId = result.payload !== null && "seal_id" in result.payload ? result.payload.seal_id : null;
      const record = sealId === null ? null : await deps.store.findSeal(sealId);
      return {
        state: result.state,
        reason: result.reason,
        checks: result.checks,
        seal_id: sealId,
        payload: result.payload,
        issued_here: record !== null,
        revoked: record?.revoked ?? false,
      };
    },
  );

  app.post(
    "/api/entitlement/redeem_seal_once",
    {
      preHandler: authenticate(deps),
      schema: describeRoute({
        summary: "Grant one rerun for a VERIFIED seal issued here, once per (principal, seal_id)",
        tags: ["seal"],
        auth: "bearer",
        consumes: UPLOAD_TYPES,
        response: redeemResponseSchema,
        errors: [400, 401, 403, 409, 413, 415, 422],
      }),
    },
    async (request) => {
      const principal = callerOf(request).principal;
      const result = await verifyUpload(await readSvgUpload(request));
      if (result.state !== "VERIFIED" || result.payload === null || !("seal_id" in result.payload))
        throw new EntitlementError("SEAL_NOT_VERIFIED", `the seal is ${result.state}: ${result.reason}`);
      const redeemed = await deps.store.redeemSeal(principal, result.payload.seal_id);
      metrics.runsGranted.inc({ mode: redeemed.mode, kind: "redemption_grant" });
      return redeemed;
    },
  );
}
