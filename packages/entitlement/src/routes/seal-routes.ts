import {
  canonicalBytes,
  onBehalfQuerySchema,
  redeemResponseSchema,
  releasedRunnersResponseSchema,
  sealVerifyResponseSchema,
  trustedKeysResponseSchema,
} from "@svc/core";
import type { FastifyInstance } from "fastify";
import type { AppDeps } from "../app-deps.ts";
import type { SealRecord } from "../domain/ledger-types.ts";
import { EntitlementError } from "../errors/entitlement-error.ts";
import { requireAdmin } from "../http/admin-tokens.ts";
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

/**
 * Issue 38 item 1: the issuer vouches only for the exact seal it issued. Every seal id is public
 * (GET /api/log/entries), so a key it still trusts (a retired, leaked one) can sign another
 * payload under a real id: the uploaded signed bytes (the payload's canonical JSON, RFC 8785, as
 * verifySealSvg checked it) must be the seal_json recorded under that id.
 */
const isIssuedPayload = (record: SealRecord, payload: unknown): boolean =>
  canonicalBytes(payload).equals(Buffer.from(record.seal_json, "utf8"));

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
    async () => {
      // issue 38 item 2: every seal issued since the log began carries its proof; a verifier
      // pinning the key learns that and refuses such a folder without it
      const logFrom = await deps.store.logStartedAt();
      return {
        keys: deps.trustedKeys.map((key) => ({
          key_id: key.key_id,
          public_key_pem: key.public_key_pem,
          not_before: key.not_before ?? null,
          not_after: key.not_after ?? null,
          // issue 23 item 8: a verifier pins each key for the issuer its seals name
          issuer: key.issuer ?? deps.issuerName(),
          log_from: logFrom,
        })),
      };
    },
  );

  app.get(
    "/api/seal/released-runners",
    {
      schema: describeRoute({
        summary:
          "Runner image digests this issuer released (SVC_RELEASED_RUNNER_DIGESTS), for verifiers to check a seal's image against; null when none is published",
        tags: ["seal"],
        response: releasedRunnersResponseSchema,
        errors: [],
      }),
    },
    async () => ({ digests: deps.releasedRunnerDigests ?? null }),
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
      // UNVERIFIED and PRESEAL_UNSIGNED answers carry the state, the reason and the checks, nothing the upload says
      if (result.state !== "VERIFIED" || sealId === null) {
        metrics.sealVerifications.inc({ state: result.state });
        return { state: result.state, reason: result.reason, reason_code: reasonCode, checks: result.checks };
      }
      const record = await deps.store.findSeal(sealId);
      if (record === null) {
        // issue 23 item 6: a seal that verifies with a key this service trusts (e.g. a retired,
        // leaked key whose window the forger back-dated into) but that its ledger never issued is
        // a failing state, never VERIFIED; nothing the upload says is echoed
        metrics.sealVerifications.inc({ state: "NOT_ISSUED_HERE" });
        const detail = `this service's ledger has no seal ${sealId}: it did not issue it, although a key it trusts signed it`;
        return {
          state: "NOT_ISSUED_HERE" as const,
          reason: detail,
          reason_code: "NOT_ISSUED_HERE",
          checks: [...result.checks, { name: "revocation", ok: false, detail, code: "NOT_ISSUED_HERE" }],
          issued_here: false,
        };
      }
      if (!isIssuedPayload(record, result.payload)) {
        // the id is this ledger's, the payload is not: its own failing state, never VERIFIED nor
        // issued here, and nothing the upload says is echoed (revoking the id would revoke the
        // genuine seal, which stays VERIFIED)
        metrics.sealVerifications.inc({ state: "ISSUED_SEAL_MISMATCH" });
        const detail = `this service issued another seal under ${sealId}: the signed payload is not the one it recorded, although a key it trusts signed it`;
        return {
          state: "ISSUED_SEAL_MISMATCH" as const,
          reason: detail,
          reason_code: "ISSUED_SEAL_MISMATCH",
          checks: [...result.checks, { name: "revocation", ok: false, detail, code: "ISSUED_SEAL_MISMATCH" }],
          issued_here: false,
        };
      }
      const revoked = record.revoked;
      const state = revoked ? "REVOKED" : "VERIFIED";
      metrics.sealVerifications.inc({ state });
      const revocation = revoked
        ? `the issuer revoked this seal at ${record.revoked_at ?? "an unrecorded time"}: ${record.revoked_reason ?? ""}`
        : "issued here and not revoked by this service";
      return {
        state,
        reason: revoked ? revocation : result.reason,
        reason_code: revoked ? "REVOKED" : reasonCode,
        checks: [
          ...result.checks,
          { name: "revocation", ok: !revoked, detail: revocation, ...(revoked ? { code: "REVOKED" } : {}) },
        ],
        seal_id: sealId,
        payload: result.payload,
        ...canonicalOf(result),
        issued_here: true,
        revoked,
        ...(revoked
          ? { revoked_at: record.revoked_at ?? null, revoked_reason: record.revoked_reason ?? null }
          : {}),
      };
    },
  );

  const admin = requireAdmin(deps.adminTokens);
  const bearer = authenticate(deps);
  const scope = deps.redeemScope ?? "issued_principal";
  app.post(
    "/api/entitlement/redeem_seal_once",
    {
      // an admin redeems on a principal's behalf with X-SVC-ADMIN-TOKEN instead of a bearer token;
      // either is checked from the headers, before the upload is read (issue 38 item 4)
      onRequest: async (request) => {
        if (request.headers["x-svc-admin-token"] === undefined) await bearer(request);
        else await admin(request);
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
      const actor = request.adminActor;
      const onBehalfOf =
        actor === null
          ? null
          : (parseStorableBody(onBehalfQuerySchema, request.query ?? {}).principal ?? null);
      const caller = actor === null ? callerOf(request).principal : null;
      const result = await verifyUpload(await readSvgUpload(request, uploadBudget, uploadTimeouts));
      metrics.sealVerifications.inc({ state: result.state });
      // issue 23 item 7: a pre-seal is an unsigned claim this service never saw
      if (result.state === "PRESEAL_UNSIGNED")
        throw new EntitlementError(
          "SEAL_NOT_VERIFIED",
          "the seal is PRESEAL_UNSIGNED: a pre-seal is an unsigned claim anyone can write, and this issuer never saw it; only a seal svc-runner seal completed can be redeemed",
        );
      // core's verdict decides: a forged picture, a script or an untrusted key is never VERIFIED
      if (result.state !== "VERIFIED" || result.payload === null || !("seal_id" in result.payload))
        throw new EntitlementError("SEAL_NOT_VERIFIED", `the seal is ${result.state}: ${result.reason}`);
      // issue 38 item 1: a payload signed under an issued id but not the one issued redeems nothing
      const record = await deps.store.findSeal(result.payload.seal_id);
      if (record !== null && !isIssuedPayload(record, result.payload))
        throw new EntitlementError(
          "SEAL_NOT_VERIFIED",
          `the seal is ISSUED_SEAL_MISMATCH: this issuer issued another seal under ${result.payload.seal_id}`,
        );
      if (result.payload.funding === "rerun")
        throw new EntitlementError(
          "SEAL_NOT_REDEEMABLE",
          `the seal's run was paid by the rerun credit of ${result.payload.rerun_of}`,
        );
      return deps.store.redeemSeal({
        seal_id: result.payload.seal_id,
        principal: caller ?? onBehalfOf,
        scope,
        actor: actor ?? (caller as string),
      });
    },
  );
}
