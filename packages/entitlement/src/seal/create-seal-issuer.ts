import { issueSealBundle, newSealId, type SigningKey, sealBundleResponseOf, toInstant } from "@svc/core";
import type { IssueSeal } from "../store/ledger-store.ts";

export interface SealIssuerOptions {
  readonly key: SigningKey;
  /** Payload `issuer`: SVC_ISSUER_NAME or the public url (contract, run_complete). */
  readonly issuerName: () => string;
  readonly verifyUrl: string | null;
}

/** The IssueSeal the store calls inside run_complete's transaction: signs with @svc/core. */
export function createSealIssuer(options: SealIssuerOptions): IssueSeal {
  return (run, fields, issuedAt) => {
    const bundle = issueSealBundle(
      {
        seal_id: newSealId(),
        principal: run.principal,
        run_id: run.run_id,
        project_id: run.project_id,
        mode: run.mode,
        module_id: run.module_id,
        category_id: run.category_id as string,
        image: { reference: run.image_reference as string, digest: run.image_digest },
        inputs_sha256: run.inputs_sha256 as string,
        run_manifest_sha256: fields.run_manifest_sha256,
        outputs_sha256: fields.outputs_sha256,
        issued_at: toInstant(issuedAt),
        issuer: options.issuerName(),
        verify_url: options.verifyUrl,
        // issue 37 item 3: the claim strength the job reported, signed and drawn; absent from older runners
        ...(fields.claim_strength === undefined ? {} : { claim_strength: fields.claim_strength }),
        // issue 16: a run paid by a rerun credit says so in what is signed, and names its origin
        ...(run.funding === "rerun" && run.rerun_of !== null
          ? { funding: "rerun", rerun_of: run.rerun_of }
          : {}),
      },
      options.key,
    );
    return sealBundleResponseOf(bundle);
  };
}
