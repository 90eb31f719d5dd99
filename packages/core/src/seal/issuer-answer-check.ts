import type { SealCheck } from "./seal-check.ts";

/**
 * What came back when a verifier asked the issuer's `POST /api/seal/verify` about a seal: its
 * HTTP status and parsed JSON body, or why there was no answer at all.
 */
export type IssuerAnswer =
  | { readonly kind: "answered"; readonly status: number; readonly body: unknown }
  | { readonly kind: "no_answer"; readonly detail: string };

/**
 * The one reading of the issuer's answer, shared by `svc seal verify --issuer` and the /verify
 * page (issue 23 items 4, 6 and 8). It fails closed: only the issuer's VERIFIED for a seal its
 * ledger holds passes; REVOKED is REVOKED; ISSUED_SEAL_MISMATCH (the id is the issuer's, the
 * payload is not: issue 38 item 1) is ISSUED_SEAL_MISMATCH; any other state (or VERIFIED with `issued_here:
 * false`) is NOT_ISSUED_HERE, since the issuer does not vouch for the seal; and a busy (503
 * VERIFY_BUSY), failing or unreachable issuer, or an answer outside the contract, is
 * REVOCATION_UNKNOWN, never VERIFIED.
 */
export function checkIssuerAnswer(issuer: string, answer: IssuerAnswer): SealCheck {
  const unknown = (why: string): SealCheck => ({
    name: "revocation",
    ok: false,
    detail: `${issuer} could not say whether it revoked this seal (${why}): revocation unknown, so it cannot be VERIFIED`,
    code: "REVOCATION_UNKNOWN",
  });
  if (answer.kind === "no_answer") return unknown(answer.detail);
  const body = (typeof answer.body === "object" && answer.body !== null ? answer.body : {}) as Record<
    string,
    unknown
  >;
  const text = (value: unknown) => (typeof value === "string" ? value : null);
  if (answer.status !== 200) {
    const error = (body.error ?? {}) as Record<string, unknown>;
    return unknown(`HTTP ${answer.status}${text(error.code) ? ` ${error.code}` : ""}`);
  }
  const state = text(body.state);
  if (state === null) return unknown("no state in its answer");
  if (state === "REVOKED") {
    const when = text(body.revoked_at) ? ` at ${body.revoked_at}` : "";
    const why = text(body.revoked_reason) ? `: ${body.revoked_reason}` : "";
    return { name: "revocation", ok: false, detail: `revoked by ${issuer}${when}${why}`, code: "REVOKED" };
  }
  if (state === "REVOCATION_UNKNOWN") return unknown(text(body.reason) ?? "it says so");
  // issue 38 item 1: the id is one the issuer issued, but under it it signed another payload
  if (state === "ISSUED_SEAL_MISMATCH")
    return {
      name: "revocation",
      ok: false,
      detail: `${issuer} issued another seal under this seal id: the signed payload is not the one it recorded`,
      code: "ISSUED_SEAL_MISMATCH",
    };
  if (state === "VERIFIED" && body.issued_here === true)
    return { name: "revocation", ok: true, detail: `${issuer} issued this seal and has not revoked it` };
  const code = text(body.reason_code);
  const said =
    state === "VERIFIED"
      ? "VERIFIED with issued_here false: its ledger has no such seal"
      : `${state}${code ? ` (${code})` : ""}`;
  return {
    name: "revocation",
    ok: false,
    detail: `${issuer} did not issue this seal or does not vouch for it: it answers ${said}`,
    code: "NOT_ISSUED_HERE",
  };
}
