import { canonicalBytes } from "../canonical-json.ts";
import { exportPublicKeyPem, type SigningKey, signBytes, type TrustedKey } from "../keys.ts";
import { renderSealSvg } from "./render-seal-svg.ts";
import {
  computeBarcodeDigest,
  isSealPayload,
  parseSealPayload,
  SEAL_VERSION_V2,
  type SealPayload,
} from "./seal-payload.ts";
import { decodeSealSig } from "./seal-sig.ts";
import { assertSealText } from "./seal-text.ts";
import { verifyInstructions } from "./verify-instructions.ts";
import { type SealCheck, type SealVerification, verifySealSvg, withChecks } from "./verify-seal-svg.ts";

/** What the issuer knows about a completed run; the rest of the payload is derived. */
export type SealFields = Omit<SealPayload, "seal_version" | "barcode_digest" | "key_id" | "attestation">;

/** The files of a run's `seal/` folder (domain notes, "Seal"). */
export interface SealBundle {
  readonly payload: SealPayload;
  /** `seal.json`: exactly the signed canonical bytes, no trailing newline. */
  readonly sealJson: string;
  /** `seal.sig`: the 64-byte Ed25519 signature, base64, one line. */
  readonly sealSig: string;
  readonly sealSvg: string;
  readonly publicKeyPem: string;
  readonly keyId: string;
  readonly verifyMd: string;
}

/**
 * Builds, signs and renders a seal: pure apart from reading the key it is given. Refuses
 * (`SEAL_TEXT_UNSAFE`) a text field outside its safe set before anything is signed.
 */
export function issueSealBundle(fields: SealFields, key: SigningKey): SealBundle {
  assertSealText(fields);
  const payload = parseSealPayload({
    ...fields,
    // issue 23 item 5: every seal issued now says what it attests
    seal_version: SEAL_VERSION_V2,
    attestation: "job_reported",
    key_id: key.keyId,
    barcode_digest: computeBarcodeDigest(fields),
  });
  const bytes = canonicalBytes(payload);
  const signature = signBytes(key, bytes);
  return {
    payload,
    sealJson: bytes.toString("utf8"),
    sealSig: `${signature.toString("base64")}\n`,
    sealSvg: renderSealSvg(payload, signature),
    publicKeyPem: exportPublicKeyPem(key.publicKey),
    keyId: key.keyId,
    verifyMd: verifyInstructions(payload),
  };
}

export interface SealFolderFiles {
  readonly sealSvg: string | Uint8Array;
  readonly sealJson?: string | Uint8Array | null;
  readonly sealSig?: string | null;
}

/**
 * Verifies a `seal/` folder: the SVG on its own (see verifySealSvg), then that `seal.json` and
 * `seal.sig`, when present, are the very bytes the SVG carries. A disagreement is INVALID, and so
 * is a seal.sig that is not exactly the base64 line the issuer writes (SEAL_SIG_MALFORMED).
 */
export function verifySealFolder(
  files: SealFolderFiles,
  trustedKeys: readonly TrustedKey[],
): SealVerification {
  const result = verifySealSvg(files.sealSvg, trustedKeys);
  if (!isSealPayload(result.payload)) return result;
  const extra: SealCheck[] = [];
  if (files.sealJson != null) {
    const ok = Buffer.from(files.sealJson).equals(canonicalBytes(result.payload));
    extra.push({
      name: "seal_files",
      ok,
      detail: ok
        ? "seal.json equals the payload in seal.svg"
        : "seal.json differs from the payload in seal.svg",
      ...(ok ? {} : { code: "SEAL_FILES_DISAGREE" as const }),
    });
  }
  if (files.sealSig != null) {
    const signature = decodeSealSig(files.sealSig);
    if (signature === null) {
      extra.push({
        name: "seal_files",
        ok: false,
        detail: "seal.sig is not one line of standard base64 (RFC 4648 §4) of a 64-byte signature",
        code: "SEAL_SIG_MALFORMED",
      });
      return withChecks(result, extra);
    }
    const ok = result.signature !== null && signature.equals(result.signature);
    extra.push({
      name: "seal_files",
      ok,
      detail: ok
        ? "seal.sig equals the signature in seal.svg"
        : "seal.sig differs from the signature in seal.svg",
      ...(ok ? {} : { code: "SEAL_FILES_DISAGREE" as const }),
    });
  }
  return withChecks(result, extra);
}
