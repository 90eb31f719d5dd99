import {
  checkLogProofFile,
  type SealCheck,
  type SealPayload,
  type SealVerification,
  type TrustedKey,
  verifySealSvg,
} from "@svc/core";
import {
  answerSignatureQuestion,
  type SignatureQuestion,
  takeSignatureQuestions,
} from "./browser-node-crypto.ts";

/**
 * core's verifySealSvg, run in the page: a first run learns which Ed25519 signatures it needs,
 * WebCrypto checks them, and a second run decides with those answers. Every other check is the
 * very code `svc seal verify` and `POST /api/seal/verify` run (issue 9 item 8).
 */
export async function verifySealInBrowser(
  svg: Uint8Array,
  trustedKeys: readonly TrustedKey[],
): Promise<SealVerification> {
  takeSignatureQuestions();
  const first = verifySealSvg(svg, trustedKeys);
  const questions = takeSignatureQuestions();
  if (questions.length === 0) return first;
  for (const question of questions) answerSignatureQuestion(question, await verifyEd25519(question));
  return verifySealSvg(svg, trustedKeys);
}

/**
 * core's checkLogProofFile, run in the page the same two-pass way (issue 30 item 4): the
 * checkpoint's note signature is the one Ed25519 check it needs, answered by WebCrypto. It is the
 * very check `svc seal verify` runs on a run folder's seal/log-proof.json.
 */
export async function checkLogProofInBrowser(
  payload: SealPayload,
  sealJson: Uint8Array,
  proofFile: Uint8Array,
  trustedKeys: readonly TrustedKey[],
): Promise<SealCheck> {
  takeSignatureQuestions();
  const first = checkLogProofFile(payload, sealJson, proofFile, trustedKeys);
  const questions = takeSignatureQuestions();
  if (questions.length === 0) return first.check;
  for (const question of questions) answerSignatureQuestion(question, await verifyEd25519(question));
  return checkLogProofFile(payload, sealJson, proofFile, trustedKeys).check;
}

async function verifyEd25519(question: SignatureQuestion): Promise<boolean> {
  try {
    const key = await crypto.subtle.importKey(
      "raw",
      question.raw as BufferSource,
      { name: "Ed25519" },
      false,
      ["verify"],
    );
    return await crypto.subtle.verify(
      { name: "Ed25519" },
      key,
      question.signature as BufferSource,
      question.data as BufferSource,
    );
  } catch {
    // a key or signature WebCrypto cannot read verifies nothing
    return false;
  }
}
