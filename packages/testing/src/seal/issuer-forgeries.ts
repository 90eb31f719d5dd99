import {
  generateSigningKey,
  issueSealBundle,
  renderPresealSvg,
  type SealReasonCode,
  type SealState,
  type SigningKey,
  sha256Hex,
  type TrustedKey,
  toTrustedKey,
} from "@svc/core";
import { corpusSealFields } from "./genuine-seals.ts";

/**
 * The issuer-trust attacks of issue 23 (items 6, 7 and 8) and issue 38 (item 1): seals every offline check passes or
 * that carry no signature at all, which only the issuer's answer (or a key's binding to its
 * issuer) refuses. Each names the state and reason code an online verifier must give it.
 */
export interface IssuerForgery {
  readonly name: string;
  readonly svg: string;
  /** What `svc seal verify --issuer`, the /verify page and POST /api/seal/verify must answer. */
  readonly online: { readonly state: SealState; readonly code: SealReasonCode };
}

/** The retired key's window, long past, and a time inside it the forger back-dates to. */
export const RETIRED_KEY_ISSUED_AT = "2025-06-01T12:00:00Z";

function retiredKeyOf(retired: SigningKey): TrustedKey {
  return toTrustedKey(retired.publicKey, {
    notBefore: "2025-01-01T00:00:00Z",
    notAfter: "2025-12-31T23:59:59Z",
  });
}

/**
 * Issue 23 item 6: a retired (leaked) key, still listed in the issuer's trusted keys with a past
 * `not_after` so its old seals verify, signs a new seal back-dated into its window. Every offline
 * check passes with the issuer's key list; only the issuer's ledger knows it never issued it.
 */
export function forgeWithRetiredKey(issuer: string, retired: SigningKey = generateSigningKey()) {
  const retiredKey = retiredKeyOf(retired);
  const bundle = issueSealBundle(
    { ...corpusSealFields(issuer, "retired"), issued_at: RETIRED_KEY_ISSUED_AT },
    retired,
  );
  const forgery: IssuerForgery = {
    name: "seal signed with a retired key, issued_at back-dated into its window",
    svg: bundle.sealSvg,
    online: { state: "NOT_ISSUED_HERE", code: "NOT_ISSUED_HERE" },
  };
  return { forgery, retiredKey, sealId: bundle.payload.seal_id };
}

/**
 * Issue 38 item 1: the same retired key signs another report under the id of a seal the issuer
 * did issue (every seal id is public: GET /api/log/entries). The ledger holds that id, so only
 * comparing the signed payload with the one recorded under it refuses the forgery; revoking the
 * id would revoke the genuine seal too.
 */
export function forgeUnderIssuedSealId(
  issuer: string,
  issuedSealId: string,
  retired: SigningKey = generateSigningKey(),
) {
  const bundle = issueSealBundle(
    {
      ...corpusSealFields(issuer, "issued id"),
      seal_id: issuedSealId,
      // the edited report: outputs the issuer never sealed
      outputs_sha256: sha256Hex(`edited report ${issuedSealId}`),
      issued_at: RETIRED_KEY_ISSUED_AT,
    },
    retired,
  );
  const forgery: IssuerForgery = {
    name: "seal signed with a retired key under the id of a seal the issuer issued",
    svg: bundle.sealSvg,
    online: { state: "ISSUED_SEAL_MISMATCH", code: "ISSUED_SEAL_MISMATCH" },
  };
  return { forgery, retiredKey: retiredKeyOf(retired), bundle };
}

/**
 * Issue 23 item 8: issuer B signs a seal naming issuer A (and A's verify link on the picture). A
 * key pinned for B must not verify it, and A must not vouch for it.
 */
export function forgeForAnotherIssuer(namedIssuer: string, signer: SigningKey = generateSigningKey()) {
  const bundle = issueSealBundle(corpusSealFields(namedIssuer, "other issuer"), signer);
  const forgery: IssuerForgery = {
    name: "seal signed by issuer B naming issuer A",
    svg: bundle.sealSvg,
    online: { state: "NOT_ISSUED_HERE", code: "NOT_ISSUED_HERE" },
  };
  return { forgery, signer };
}

/**
 * Issue 23 item 7: a pre-seal needs no key: anyone can render one over any folder's hashes. It is
 * an unsigned claim on every surface.
 */
export function fabricatePreseal(
  hashes: { inputs_sha256?: string; outputs_sha256?: string; run_manifest_sha256?: string } = {},
): IssuerForgery {
  const {
    seal_id: _id,
    principal: _p,
    issued_at: _at,
    issuer: _i,
    verify_url: _u,
    ...run
  } = corpusSealFields("x", "preseal");
  const svg = renderPresealSvg({
    ...run,
    ...hashes,
    seal_version: "svc.preseal/v1",
    created_at: "2026-11-23T10:20:00Z",
    reason: "run_complete_unreachable",
  });
  return {
    name: "pre-seal fabricated over a folder's hashes with no key",
    svg,
    online: { state: "PRESEAL_UNSIGNED", code: "PRESEAL_UNSIGNED" },
  };
}
