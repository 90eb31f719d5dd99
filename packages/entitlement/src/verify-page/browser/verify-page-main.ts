import {
  canonicalBytes,
  checkIssuerAnswer,
  describeAttestation,
  describeClaimStrength,
  formatLogProofFile,
  type IssuerAnswer,
  isSealPayload,
  logProofSchema,
  type SealCheck,
  type SealPayload,
  type SealVerification,
  type TrustedKey,
  trustedKeyListSchema,
  withChecks,
} from "@svc/core";
import { checkLogProofInBrowser, verifySealInBrowser } from "./verify-in-browser.ts";

// The verification page's script (GET /verify, issue 9 item 8). Everything the upload says is
// written with textContent; the picture shown is core's canonical rendering of the signed
// payload as a blob: image, never the uploaded file.

const byId = <T extends HTMLElement>(id: string): T => {
  const element = document.getElementById(id);
  if (!element) throw new Error(`the page has no #${id}`);
  return element as T;
};

const served = location.protocol === "http:" || location.protocol === "https:";
let trustedKeys: readonly TrustedKey[] = [];
let canonicalUrl: string | null = null;

function setText(id: string, text: string): void {
  byId(id).textContent = text;
}

function showKeys(keys: readonly TrustedKey[], source: string): void {
  trustedKeys = keys;
  // lets a person (and the browser test) see that a drop now verifies against these keys
  document.body.dataset.keys = String(keys.length);
  setText("keys-source", `${keys.length} key(s) from ${source}: ${keys.map((key) => key.key_id).join(", ")}`);
}

/** A keys file or GET /api/seal/keys answer, checked with core's trusted-key schema (issue 15). */
function readKeys(value: unknown): TrustedKey[] {
  const list = Array.isArray(value) ? value : (value as { keys?: unknown })?.keys;
  if (!Array.isArray(list)) throw new Error('expected {"keys": [...]} as GET /api/seal/keys answers');
  const parsed = trustedKeyListSchema.safeParse(list);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(
      `keys${(issue?.path ?? []).map((part) => `[${String(part)}]`).join("")}: ${issue?.message}`,
    );
  }
  return parsed.data;
}

async function loadIssuerKeys(): Promise<void> {
  try {
    const response = await fetch("/api/seal/keys", { headers: { accept: "application/json" } });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    showKeys(readKeys(await response.json()), "this issuer (GET /api/seal/keys)");
  } catch (error) {
    setText(
      "keys-source",
      `the issuer's keys could not be read (${(error as Error).message}): choose a keys file`,
    );
  }
}

/**
 * The issuer's own answer (POST /api/seal/verify, same origin), read by core's checkIssuerAnswer
 * as `svc seal verify --issuer` reads it: a busy (503 VERIFY_BUSY) or failing issuer is
 * REVOCATION_UNKNOWN and a seal it did not issue is NOT_ISSUED_HERE, never VERIFIED (issue 23
 * items 4 and 6).
 */
async function askIssuer(svg: Uint8Array): Promise<SealCheck> {
  let answer: IssuerAnswer;
  try {
    const response = await fetch("/api/seal/verify", {
      method: "POST",
      headers: { "content-type": "image/svg+xml" },
      body: svg as BufferSource,
    });
    const text = await response.text();
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      // a proxy's HTML error page: the status decides below
    }
    answer =
      body === null && response.ok
        ? { kind: "no_answer", detail: `HTTP ${response.status}, the answer is not JSON` }
        : { kind: "answered", status: response.status, body };
  } catch (error) {
    answer = { kind: "no_answer", detail: (error as Error).message };
  }
  return checkIssuerAnswer("this issuer", answer);
}

/**
 * Issue 30 item 4, "the /verify page does the same": the seal's `issued` leaf is fetched with its
 * inclusion proof and the issuer's current signed checkpoint (GET /api/log/proof/inclusion, same
 * origin) and checked by core's checkLogProofFile, as `svc seal verify` checks seal/log-proof.json.
 * A log with no leaf for the seal is LOG_ENTRY_MISMATCH (a seal the issuer does not admit to);
 * a log that cannot be read leaves the history unknown, so the page fails closed (never VERIFIED).
 */
async function askLog(payload: SealPayload): Promise<SealCheck> {
  const fail = (detail: string, code: NonNullable<SealCheck["code"]>): SealCheck => ({
    name: "log_inclusion",
    ok: false,
    detail,
    code,
  });
  const query = new URLSearchParams({ seal_id: payload.seal_id, event: "issued" });
  let response: Response;
  try {
    response = await fetch(`/api/log/proof/inclusion?${query}`, { headers: { accept: "application/json" } });
  } catch (error) {
    return fail(`the issuer's log could not be read (${(error as Error).message})`, "REVOCATION_UNKNOWN");
  }
  if (response.status === 404)
    return fail(
      "the issuer's log holds no leaf for this seal: a seal its issuer does not admit to",
      "LOG_ENTRY_MISMATCH",
    );
  if (!response.ok) return fail(`the issuer's log answered HTTP ${response.status}`, "REVOCATION_UNKNOWN");
  let proof: unknown;
  try {
    proof = await response.json();
  } catch {
    return fail("the issuer's log answer is not JSON", "LOG_PROOF_INVALID");
  }
  const parsed = logProofSchema.safeParse(proof);
  if (!parsed.success) return fail("the issuer's log answer is not a log proof", "LOG_PROOF_INVALID");
  // seal.json is the payload's canonical bytes (the signed bytes the leaf's payload_sha256 names)
  const proofFile = new TextEncoder().encode(formatLogProofFile(parsed.data));
  return checkLogProofInBrowser(payload, canonicalBytes(payload), proofFile, trustedKeys);
}

function showChecks(checks: readonly SealCheck[]): void {
  const body = byId<HTMLTableSectionElement>("checks");
  body.replaceChildren();
  for (const check of checks) {
    const row = body.insertRow();
    row.dataset.ok = String(check.ok);
    for (const text of [check.ok ? "ok" : "FAIL", check.name, check.detail, check.code ?? ""])
      row.insertCell().textContent = text;
  }
}

/**
 * Issue 23 item 9: only a VERIFIED seal's payload is listed under "Signed facts"; a pre-seal's
 * fields are listed as unsigned claims; anything else (UNVERIFIED, INVALID, REVOKED, unknown
 * revocation, not issued here) lists nothing the upload says.
 */
function showFacts(verification: SealVerification): void {
  const signed = verification.state === "VERIFIED" ? verification.payload : null;
  const claims = verification.state === "PRESEAL_UNSIGNED" ? verification.payload : null;
  fillList(byId<HTMLDListElement>("facts"), signed);
  fillList(byId<HTMLDListElement>("claims"), claims);
  byId("claims-section").hidden = claims === null;
  const payload = signed;
  const funding = payload && "funding" in payload && payload.funding === "rerun" ? payload : null;
  setText(
    "funding",
    funding
      ? `funding: rerun — this run was paid by redeeming seal ${funding.rerun_of}; this seal cannot be redeemed`
      : payload && "seal_id" in payload
        ? "funding: purchased run"
        : "",
  );
  setText("attestation", isSealPayload(payload) ? describeAttestation(payload) : "");
  // issue 37 item 3: the signed claim strength, when the seal carries one
  setText("claim", (isSealPayload(payload) ? describeClaimStrength(payload) : null) ?? "");
}

function fillList(list: HTMLDListElement, payload: SealVerification["payload"]): void {
  list.replaceChildren();
  if (!payload) return;
  for (const [name, value] of Object.entries(payload)) {
    const term = document.createElement("dt");
    term.textContent = name;
    const detail = document.createElement("dd");
    detail.textContent = typeof value === "object" && value !== null ? JSON.stringify(value) : String(value);
    detail.dataset.fact = name;
    list.append(term, detail);
  }
}

function showCanonical(svg: string | null): void {
  const image = byId<HTMLImageElement>("canonical");
  if (canonicalUrl) URL.revokeObjectURL(canonicalUrl);
  canonicalUrl = svg ? URL.createObjectURL(new Blob([svg], { type: "image/svg+xml" })) : null;
  image.hidden = canonicalUrl === null;
  if (canonicalUrl) image.src = canonicalUrl;
  else image.removeAttribute("src");
}

async function verifyFile(file: File): Promise<void> {
  const result = byId("result");
  result.dataset.status = "verifying";
  setText("file-name", file.name);
  const svg = new Uint8Array(await file.arrayBuffer());
  let verification = await verifySealInBrowser(svg, trustedKeys);
  const revocationNote = served
    ? ""
    : "revocation: not asked (page opened from disk, no issuer to ask): an offline check cannot exclude a revoked seal, nor one signed with a leaked key that the issuer never issued";
  if (served && verification.state === "VERIFIED" && isSealPayload(verification.payload)) {
    const issuer = await askIssuer(svg);
    // The log is asked only about a seal the issuer vouches for: a revoked seal or one not issued
    // here keeps the issuer's own answer as its reason.
    const log = issuer.ok ? [await askLog(verification.payload)] : [];
    verification = withChecks(verification, [issuer, ...log]);
  }
  setText("state", verification.state);
  result.dataset.state = verification.state;
  setText("reason-code", verification.reason_code ?? "");
  setText("reason", verification.reason);
  setText("revocation-note", revocationNote);
  showChecks(verification.checks);
  showFacts(verification);
  // the canonical rendering is shown as "what was signed" only for a VERIFIED seal (issue 23 item 9)
  showCanonical(verification.state === "VERIFIED" ? verification.canonical_svg : null);
  result.dataset.runs = String(Number(result.dataset.runs ?? "0") + 1);
  result.dataset.status = "done";
}

function onFiles(files: FileList | null | undefined): void {
  const file = files?.[0];
  if (file) void verifyFile(file);
}

async function onKeysFile(files: FileList | null): Promise<void> {
  const file = files?.[0];
  if (!file) return;
  try {
    showKeys(readKeys(JSON.parse(await file.text())), `the file ${file.name}`);
  } catch (error) {
    setText("keys-source", `${file.name} is not a keys file: ${(error as Error).message}`);
  }
}

const seal = byId<HTMLInputElement>("seal-file");
seal.addEventListener("change", () => onFiles(seal.files));
const keysFile = byId<HTMLInputElement>("keys-file");
keysFile.addEventListener("change", () => void onKeysFile(keysFile.files));
const drop = byId("drop");
drop.addEventListener("dragover", (event) => event.preventDefault());
drop.addEventListener("drop", (event) => {
  event.preventDefault();
  onFiles(event.dataTransfer?.files);
});
if (served) void loadIssuerKeys();
else
  setText(
    "keys-source",
    "opened from disk: choose the issuer's keys file (GET /api/seal/keys saved as JSON)",
  );
