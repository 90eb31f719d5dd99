/**
 * Verification states, the one table shared by the CLI, the service and the page
 * (docs/contracts/entitlement-http.md, "Seal states"). The offline verifier never answers
 * REVOKED: only the issuer knows about a revocation.
 */
export type SealState = "VERIFIED" | "UNVERIFIED" | "INVALID" | "REVOKED" | "PENDING";

/**
 * Why a seal is not VERIFIED, stable across versions and surfaces (core README, "Reason codes").
 * One code per result: the first failing check in {@link REASON_PRIORITY} order.
 */
export const SEAL_REASON_CODES = {
  SVG_UNREADABLE: "not a well-formed UTF-8 SVG (or a DOCTYPE, or the wrong root)",
  SVG_TOO_COMPLEX: "over the structural caps (bytes, elements, nesting, path subpaths)",
  SEAL_NOT_FOUND: "no embedded seal",
  SEAL_NOT_UNIQUE: "more than one embedded seal, or copies that disagree",
  PAYLOAD_INVALID: "the payload is not a canonical svc.seal/v1 or svc.preseal/v1 payload",
  SIGNATURE_INVALID: "the Ed25519 signature does not verify, or the key id is not the signed one",
  BARCODE_DIGEST_MISMATCH: "barcode_digest does not match the sealed hashes",
  IMAGE_NOT_CANONICAL: "the image is not the canonical rendering of its signed payload",
  RING_CHANNEL_MISMATCH: "the ring does not decode to the seal id",
  BARCODE_CHANNEL_MISMATCH: "the QR code is not the sealed symbol",
  SEAL_FILES_DISAGREE:
    "a file of seal/ is not what the seal reproduces (seal.json, seal.sig, VERIFY.md, public_key.pem)",
  VERIFY_SCRIPT_NOT_RELEASED: "repro_pack/container/verify.sh is not a verify.sh the runner released",
  RUN_OUTPUTS_CHANGED: "the run folder's outputs are not the sealed ones",
  RUN_MANIFEST_CHANGED: "run_manifest.json is not the sealed one",
  RUN_FOLDER_UNCOVERED: "the run folder holds files or folders the seal does not cover",
  KEY_UNTRUSTED: "the signing key is not one you trust (or outside its validity window)",
  REVOKED: "the issuer revoked the seal",
  PRESEAL: "a pre-seal: run_complete has not issued the seal yet",
} as const;

export type SealReasonCode = keyof typeof SEAL_REASON_CODES;

/** Definite failures come first; an untrusted key only matters when nothing else is wrong. */
export const REASON_PRIORITY: readonly SealReasonCode[] = [
  "SVG_UNREADABLE",
  "SVG_TOO_COMPLEX",
  "SEAL_NOT_FOUND",
  "SEAL_NOT_UNIQUE",
  "PAYLOAD_INVALID",
  "SIGNATURE_INVALID",
  "BARCODE_DIGEST_MISMATCH",
  "IMAGE_NOT_CANONICAL",
  "RING_CHANNEL_MISMATCH",
  "BARCODE_CHANNEL_MISMATCH",
  "SEAL_FILES_DISAGREE",
  "VERIFY_SCRIPT_NOT_RELEASED",
  "RUN_MANIFEST_CHANGED",
  "RUN_OUTPUTS_CHANGED",
  "RUN_FOLDER_UNCOVERED",
  "REVOKED",
  "KEY_UNTRUSTED",
];
