import { sha256Hex } from "../digest.ts";
import { generateSigningKey, type SigningKey, type TrustedKey, toTrustedKey } from "../keys.ts";
import { issueSealBundle, type SealBundle, type SealFields } from "./seal-bundle.ts";

/** A realistic seal and the key that signed it, for this package's tests. */
export function makeSealFixture(
  overrides: Partial<SealFields> = {},
  key: SigningKey = generateSigningKey(),
): {
  bundle: SealBundle;
  key: SigningKey;
  trusted: TrustedKey[];
} {
  const fields: SealFields = {
    seal_id: "seal_0123456789abcdef0123456789abcdef",
    principal: "runner@customer-project.iam.gserviceaccount.com",
    run_id: "run_20261121T101500Z",
    project_id: "demo-project",
    mode: "standard",
    module_id: "computational",
    category_id: "SMALL_MOLECULE__LIGAND_ONLY__NO_STRUCTURE__NO_ASSAYS",
    image: { reference: "registry.example/svc/runner:1.0.0", digest: `sha256:${sha256Hex("image")}` },
    inputs_sha256: sha256Hex("inputs"),
    run_manifest_sha256: sha256Hex("manifest"),
    outputs_sha256: sha256Hex("outputs"),
    issued_at: "2026-11-21T10:20:00Z",
    issuer: "https://entitlement.example",
    verify_url: null,
    ...overrides,
  };
  return { bundle: issueSealBundle(fields, key), key, trusted: [toTrustedKey(key.publicKey)] };
}
