import { RUN_FILES } from "../run-folder/run-files.ts";

/**
 * Verification states, the one table shared by the CLI, the service and the page
 * (docs/contracts/entitlement-http.md, "Seal states"). The offline verifier never answers
 * REVOKED, REVOCATION_UNKNOWN, NOT_ISSUED_HERE or ISSUED_SEAL_MISMATCH: only the issuer knows
 * what it issued and revoked (issue 23 items 4 and 6, issue 38 item 1). A pre-seal is PRESEAL_UNSIGNED, never a state a script could
 * read as success (issue 23 item 7).
 */
export const SEAL_STATES = [
  "VERIFIED",
  "UNVERIFIED",
  "INVALID",
  "REVOKED",
  "PRESEAL_UNSIGNED",
  "REVOCATION_UNKNOWN",
  "NOT_ISSUED_HERE",
  "ISSUED_SEAL_MISMATCH",
  "LOG_PROOF_INVALID",
  "LOG_PROOF_MISSING",
  "LOG_ENTRY_MISMATCH",
  "LOG_INCONSISTENT",
] as const;

export type SealState = (typeof SEAL_STATES)[number];

/**
 * Why a seal is not VERIFIED, stable across versions and surfaces (core README, "Reason codes").
 * One code per result: the first failing check in {@link REASON_PRIORITY} order.
 */
export const SEAL_REASON_CODES = {
  SVG_UNREADABLE: "not a well-formed UTF-8 SVG (or a DOCTYPE, or the wrong root)",
  SVG_TOO_COMPLEX: "over the structural caps (bytes, elements, nesting, path subpaths, attributes, markup)",
  SEAL_FILE_TOO_LARGE:
    "a file of seal/ (or the folder's verify.sh) is over its size cap, so it is not read (core SEAL_FILE_MAX_BYTES)",
  SEAL_NOT_FOUND: "no embedded seal",
  SEAL_NOT_UNIQUE: "more than one embedded seal, or copies that disagree",
  PAYLOAD_INVALID: "the payload is not a canonical svc.seal/v1 or svc.preseal/v1 payload",
  SIGNATURE_INVALID: "the Ed25519 signature does not verify, or the key id is not the signed one",
  BARCODE_DIGEST_MISMATCH: "barcode_digest does not match the sealed hashes",
  IMAGE_NOT_CANONICAL: "the image is not the canonical rendering of its signed payload",
  RING_CHANNEL_MISMATCH: "the ring does not decode to the seal id",
  BARCODE_CHANNEL_MISMATCH: "the QR code is not the sealed symbol",
  SEAL_SIG_MALFORMED: "seal.sig is not one line of standard base64 of a 64-byte signature",
  SEAL_FILES_DISAGREE:
    "a file of seal/ is not what the seal reproduces (seal.json, seal.sig, VERIFY.md, public_key.pem)",
  VERIFY_SCRIPT_NOT_RELEASED: `${RUN_FILES.verifyScript} is not a verify.sh the runner released`,
  RUN_OUTPUTS_CHANGED: "the run folder's outputs are not the sealed ones",
  RUN_MANIFEST_CHANGED: `${RUN_FILES.manifest} is not the sealed one`,
  RUN_FOLDER_UNCOVERED: "the run folder holds files or folders the seal does not cover",
  KEY_UNTRUSTED: "the signing key is not one you trust (or outside its validity window)",
  RUN_MANIFEST_MISMATCH: `${RUN_FILES.manifest} names another principal, run, project, mode or category than the seal`,
  CLAIM_STRENGTH_MISMATCH: `${RUN_FILES.summary} does not state the signed claim strength exactly once (another, none, two, or unreadable)`,
  PROVENANCE_INVALID: `${RUN_FILES.sealProvenance} is not a DSSE envelope the seal's key signed over the issuer's SLSA provenance of the sealed outputs`,
  LOG_PROOF_INVALID: `${RUN_FILES.sealLogProof} does not prove the seal's leaf in a checkpoint signed by a trusted log key`,
  LOG_PROOF_MISSING: `${RUN_FILES.sealLogProof} is missing, though the pinned key says its issuer keeps a log since before the seal was issued (the key's log_from)`,
  ISSUED_SEAL_MISMATCH:
    "the issuer asked issued another seal under this seal id: the signed payload is not the one it recorded",
  LOG_ENTRY_MISMATCH: "the log's leaf for this seal is missing or is not this seal's entry",
  LOG_INCONSISTENT:
    "the issuer's log is not an append-only extension of the checkpoint in the folder (rewritten or forked)",
  IMAGE_NOT_RELEASED: "the sealed runner image digest is not one the issuer lists as released",
  ISSUER_MISMATCH: "the signing key is pinned for another issuer than the one the seal names",
  NOT_ISSUED_HERE: "the issuer asked says it did not issue this seal (or does not vouch for it)",
  REVOKED: "the issuer revoked the seal",
  REVOCATION_UNKNOWN: "the issuer could not be asked about revocation (busy, unreachable or no answer)",
  PRESEAL_UNSIGNED: "a pre-seal: an unsigned claim anyone can write; the issuer never saw it",
} as const;

export type SealReasonCode = keyof typeof SEAL_REASON_CODES;

/** Definite failures come first; an untrusted key only matters when nothing else is wrong. */
export const REASON_PRIORITY: readonly SealReasonCode[] = [
  "SVG_UNREADABLE",
  "SVG_TOO_COMPLEX",
  // issue 38 item 8: a file too large to read leaves the checks that need it undecided; this decides
  "SEAL_FILE_TOO_LARGE",
  "SEAL_NOT_FOUND",
  "SEAL_NOT_UNIQUE",
  "PAYLOAD_INVALID",
  "SIGNATURE_INVALID",
  "BARCODE_DIGEST_MISMATCH",
  "IMAGE_NOT_CANONICAL",
  "RING_CHANNEL_MISMATCH",
  "BARCODE_CHANNEL_MISMATCH",
  "SEAL_SIG_MALFORMED",
  "SEAL_FILES_DISAGREE",
  "VERIFY_SCRIPT_NOT_RELEASED",
  "RUN_MANIFEST_CHANGED",
  "RUN_OUTPUTS_CHANGED",
  "RUN_FOLDER_UNCOVERED",
  "RUN_MANIFEST_MISMATCH",
  // issue 37 item 3: after the outputs checks, so an edited summary is first RUN_OUTPUTS_CHANGED
  "CLAIM_STRENGTH_MISMATCH",
  "PROVENANCE_INVALID",
  // issue 38 item 1: the issuer's own refusal of a payload it did not sign under this id decides
  // over the folder's leaf that says the same, so every surface names it alike
  "ISSUED_SEAL_MISMATCH",
  "LOG_ENTRY_MISMATCH",
  "LOG_PROOF_INVALID",
  "LOG_PROOF_MISSING",
  "LOG_INCONSISTENT",
  "IMAGE_NOT_RELEASED",
  "ISSUER_MISMATCH",
  "NOT_ISSUED_HERE",
  "REVOKED",
  "KEY_UNTRUSTED",
  "REVOCATION_UNKNOWN",
  "PRESEAL_UNSIGNED",
];

/** The state a deciding reason code gives (the rest are INVALID: definite mismatches). */
export function stateOfReason(code: SealReasonCode): SealState {
  switch (code) {
    case "KEY_UNTRUSTED":
      return "UNVERIFIED";
    case "REVOKED":
    case "REVOCATION_UNKNOWN":
    case "NOT_ISSUED_HERE":
    case "ISSUED_SEAL_MISMATCH":
    case "PRESEAL_UNSIGNED":
    case "LOG_PROOF_INVALID":
    case "LOG_PROOF_MISSING":
    case "LOG_ENTRY_MISMATCH":
    case "LOG_INCONSISTENT":
      return code;
    default:
      return "INVALID";
  }
}
