import {
  onBehalfQuerySchema,
  redeemResponseSchema,
  sealVerifyResponseSchema,
  trustedKeysResponseSchema,
} from "@svc/core";
import type { FastifyInstance } from "fastify";
import type { AppDeps } from "../app-deps.ts";
import { EntitlementError } from "../errors/entitlement-error.ts";
import { createAdminTokenCheck } from "../http/admin-tokens.ts";
import type { ServiceMetrics } from "../http/metrics.ts";
import { parseStorableBody } from "../http/parse-storable-body.ts";
import { readSvgUpload } from "../http/read-svg-upload.ts";
import { describeRoute } from "../http/route-schema.ts";
import type { SvgUpload } from "../http/svg-upload.ts";
import type { UploadBudget } from "../http/upload-budget.ts";
import type { UploadTimeouts } from "../http/upload-clock.ts";
import type { SealVerdict, SealVerifier } from "../seal/seal-verify-pool.ts";
import { authenticate, callerOf } from "./entitlement-routes.ts";

const UPLOAD_TYPES = ["multipart/form-data", "image/svg+xml"];

// core's verdict carries a stable reason code and the canonical rendering of a payload a trusted
// key signed (issue 9 items 1 and 5); read them whatever core version answered
const reasonCodeOf = (result: SealVerdict): string | null =>
  (result as { reason_code?: string | null }).reason_code ?? null;
const canonicalOf = (result: SealVerdict): { canonical_svg?: string } => {
  const svg = (result as { canonical_svg?: string | null }).canonical_svg;
  return typeof svg === "string" ? { canonical_svg: svg } : {};
};

/** Seal verification, redemption and the published keys (spec §4.1, domain notes "Seal"). */
export function registerSealRoutes(
  app: FastifyInstance,
  deps: AppDeps,
  metrics: ServiceMetrics,
  sealVerifier: SealVerifier,
  uploadBudget: UploadBudget,
  uploadTimeouts: UploadTimeouts,
): void {
  // core's verifySealSvg, run by a worker thread (issue 9 item 7): its state alone decides
  const verifyUpload = async (upload: SvgUpload): Promise<SealVerdict> => {
    const result = await sealVerifier.verify(upload);
    // hostile or broken input (not XML, DOCTYPE/entities, floods) is the client's fault: 400
    const readable = result.checks.find((check) => check.name === "svg_readable");
    if (readable !== undefined && !readable.ok) {
      const code = reasonCodeOf(result);
      throw new EntitlementError(
        "SVG_UNREADABLE",
        `field file: ${code === null ? "" : `${code}: `}${readable.detail}`,
      );
    }
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
        errors: [400, 408, 413, 415, 503],
      }),
    },
    async (request) => {
      const result = await verifyUpload(await readSvgUpload(request, uploadBudget, uploadTimeouts));
      const sealId = result.payload !== null && "seal_id" in result.payload ? result.payload.seal_id : null;
      // the same stable reason code as verifySealSvg, svc seal verify and the page (issue 9)
      const reasonCode = reasonCodeOf(result);
      // only a payload whose signature a trusted key verified is worth echoing (issue 9): INVALID,
      // UNVERIFIED and PENDING answers carry the state, the reason and the checks, nothing the upload says
      if (result.state !== "VERIFIED" || sealId === null) {
        metrics.sealVerifications.inc({ state: result.state });
        return { state: result.state, reason: result.reason, reason_code: reasonCode, checks: result.checks };
      }
      const record = await deps.store.findSeal(sealId);
      const revoked = record?.revoked ?? false;
      const state = revoked ? "REVOKED" : "VERIFIED";
      metrics.sealVerifications.inc({ state });
      const revocation = revoked
        ? `the issuer revoked this seal at ${record?.revoked_at ?? "an unrecorded time"}: ${record?.revoked_reason ?? ""}`
        : record === null
          ? "not issued by this service: it cannot say whether the issuer revoked it"
          : "not revoked by this service";
      return {
        state,
        reason: revoked ? revocation : result.reason,
        reason_code: revoked ? "REVOKED" : reasonCode,
        checks: [...result.checks, { name: "revocation", ok: !revoked, detail: revocation }],
        seal_id: sealId,
        payload: result.payload,
        ...canonicalOf(result),
        issued_here: record !== null,
        revoked,
        ...(revoked
          ? { revoked_at: record?.revoked_at ?? null, revoked_reason: record?.revoked_reason ?? null }
          : {}),
      };
    },
  );

  const checkAdmin = createAdminTokenCheck(deps.adminTokens);
  const bearer = authenticate(deps);
  const scope = deps.redeemScope ?? "issued_principal";
  app.post(
    "/api/entitlement/redeem_seal_once",
    {
      // an admin redeems on a principal's behalf with X-SVC-ADMIN-TOKEN instead of a bearer token
      preHandler: async (request) => {
        if (request.headers["x-svc-admin-token"] === undefined) await bearer(request);
      },
      schema: describeRoute({
        summary:
          "Grant one rerun credit (same principal, project and mode) for a VERIFIED, purchased-run seal issued here",
        tags: ["seal"],
        auth: "bearer-or-admin",
        consumes: UPLOAD_TYPES,
        response: redeemResponseSchema,
        errors: [400, 401, 403, 408, 409, 413, 415, 422, 503],
      }),
    },
    async (request) => {
      const admin =
        request.headers["x-svc-admin-token"] === undefined
          ? null
          : checkAdmin(request.headers["x-svc-admin-token"]);
      const onBehalfOf =
        admin === null
          ? null
          : (parseStorableBody(onBehalfQuerySchema, request.query ?? {}).principal ?? null);
      const caller = admin === null ? callerOf(request).principal : null;
      const result = await verifyUpload(await readSvgUpload(request, uploadBudget, uploadTimeouts));
      metrics.sealVerifications.inc({ state: result.state });
      // core's verdict decides: a forged picture, a script or an untrusted key is never VERIFIED
      if (result.state !== "VERIFIED" || result.payload === null || !("seal_id" in result.payload))
        throw new EntitlementError("SEAL_NOT_VERIFIED", `the seal is ${result.state}: ${result.reason}`);
      if (result.payload.funding === "rerun")
        throw new EntitlementError(
          "SEAL_NOT_REDEEMABLE",
          `the seal's run was paid by the rerun credit of ${result.payload.rerun_of}`,
        );
      return deps.store.redeemSeal({
        seal_id: result.payload.seal_id,
        principal: caller ?? onBehalfOf,
        scope,
        actor: admin ?? (caller as string),
      });
    },
  );
}
