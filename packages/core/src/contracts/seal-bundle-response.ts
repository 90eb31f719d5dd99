import type { SealBundle } from "../seal/seal-bundle.ts";
import type { SealBundleResponse } from "./entitlement-responses.ts";

/** The `seal` of a run_complete answer (docs/contracts/entitlement-http.md) from an issued bundle. */
export function sealBundleResponseOf(bundle: SealBundle): SealBundleResponse {
  return {
    seal_id: bundle.payload.seal_id,
    payload: bundle.payload,
    seal_json: bundle.sealJson,
    seal_sig: bundle.sealSig,
    seal_svg: bundle.sealSvg,
    public_key_pem: bundle.publicKeyPem,
    key_id: bundle.keyId,
    verify_md: bundle.verifyMd,
  };
}
