import type { SealPayload } from "./seal-payload.ts";

/** Text of `seal/VERIFY.md`: how anyone checks this seal, offline and online. */
export function verifyInstructions(payload: SealPayload): string {
  const api = payload.verify_url ? new URL("/api/seal/verify", payload.verify_url).href : "";
  return verifyInstructionsText(payload, api);
}

/** The fields of the payload VERIFY.md names, as verify.sh fills them in (verifyInstructionsTemplate). */
export const VERIFY_MD_FIELDS = [
  "seal_id",
  "run_id",
  "project_id",
  "issuer",
  "issued_at",
  "key_id",
  "inputs_sha256",
  "run_manifest_sha256",
  "outputs_sha256",
  "principal",
  "verify_url",
] as const;

/**
 * VERIFY.md with `@@field@@` in place of each of {@link VERIFY_MD_FIELDS} and `@@api_url@@` for
 * the verify page's API URL, for verify.sh to fill in and compare byte for byte (issue 38 item 7:
 * a rewritten VERIFY.md is refused by both verifiers). `online`: the seal names a verify_url.
 */
export function verifyInstructionsTemplate(online: boolean): string {
  const marked = Object.fromEntries(VERIFY_MD_FIELDS.map((field) => [field, `@@${field}@@`]));
  if (!online) marked.verify_url = null as unknown as string;
  return verifyInstructionsText(marked as unknown as SealPayload, "@@api_url@@");
}

function verifyInstructionsText(payload: SealPayload, api: string): string {
  const online = payload.verify_url
    ? `Open ${payload.verify_url} and upload \`seal.svg\`, or:\n\n    curl -F file=@seal.svg ${api}\n`
    : `Upload \`seal.svg\` to the issuing service's \`POST /api/seal/verify\` (issuer: ${payload.issuer}):\n\n    curl -H 'Content-Type: image/svg+xml' --data-binary @seal.svg <entitlement-url>/api/seal/verify\n`;
  return `# Verifying seal ${payload.seal_id}

Run \`${payload.run_id}\` of project \`${payload.project_id}\` was sealed by ${payload.issuer} at ${payload.issued_at}
with key \`${payload.key_id}\`.

## What the seal attests

The run's staged inputs (\`inputs_sha256\` ${payload.inputs_sha256}), its run manifest
(\`run_manifest_sha256\` ${payload.run_manifest_sha256}) and its outputs at completion
(\`outputs_sha256\` ${payload.outputs_sha256}) are the hashes the job of principal \`${payload.principal}\`
reported to the issuer for this consumed run. The issuer did not observe the computation: it runs on the
customer's cluster, so the seal attests what that principal's job reported, not that the published runner
produced these outputs. It does not attest that the science is right, that the inputs were sufficient,
or that a rerun right was not used elsewhere.

## Trust the issuer, not this folder

\`public_key.pem\` here is a copy for convenience: anyone who fabricates a seal can put their own key
beside it, so it proves nothing by itself. Get the key from the issuer (${payload.issuer},
\`GET /api/seal/keys\`) and check that its id is \`${payload.key_id}\`.

## Offline, with the svc CLI

    svc trust add --issuer <entitlement url>      # once: pins the issuer's published keys, prints their ids
    svc seal verify <run-output-dir>              # or: svc seal verify seal.svg
    svc seal verify <run-output-dir> --issuer <entitlement url>   # also asks the issuer about revocation

VERIFIED means: the Ed25519 signature over \`seal.json\` is valid for a key you trust; \`seal.svg\` is
exactly the canonical rendering of that signed payload (what you see is what was signed); its ring
decodes to the seal id and its QR code to the barcode digest, which matches the three hashes above;
and, for a run folder: the outputs and \`run_manifest.json\` hash to the sealed values; this
\`VERIFY.md\` and \`public_key.pem\` are byte for byte what the issuer writes for this seal;
\`repro_pack/container/verify.sh\` is a released one (\`VERIFY_SCRIPT_NOT_RELEASED\` otherwise); and
nothing in the folder is outside the seal (\`RUN_FOLDER_UNCOVERED\`: scratch entries \`.scratch*\`,
empty folders, or any file in seal/ but the five the issuer writes). States:
VERIFIED (0), INVALID (1), UNVERIFIED (3: no trusted key), PRESEAL_UNSIGNED (4: a pre-seal, an unsigned
claim anyone can write), REVOKED (6), REVOCATION_UNKNOWN (7: the issuer could not answer) and
NOT_ISSUED_HERE (8: the issuer did not issue it); the last three only with --issuer.

What an offline check cannot exclude: a seal the issuer has revoked, and a seal signed with a key the
issuer once used and still lists (a retired or leaked key, its date set back into the key's window).
Only the issuer's answer (--issuer, or its verification page) refuses those.
An optimised copy of \`seal.svg\` is INVALID; \`svc seal render seal.json -o seal.svg\` writes it again.

## Offline, with standard tools

\`seal.json\` holds exactly the signed bytes (canonical JSON, RFC 8785). With OpenSSL 3 and the
issuer's key saved as \`issuer.pem\`:

    base64 -d seal.sig > seal.sig.bin
    openssl pkeyutl -verify -pubin -inkey issuer.pem -rawin -in seal.json -sigfile seal.sig.bin

Recompute the output digest (format svc-tree/v1, the seal/ folder and the runner's .scratch/ and .scratch-<index>/ excluded)
from the run folder and compare it with \`outputs_sha256\` in \`seal.json\`:

    find . -type f ! -path './seal/*' ! -path './.scratch/*' ! -path './.scratch-*' -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sed 's|  \\./|  |' | sha256sum

### verify.sh: run a known-good copy, never the folder's own

\`repro_pack/container/verify.sh\` in this folder proves nothing: whoever edits the outputs can
edit it to print the sealed hashes. Take the released script from the svc CLI (or the issuer) and
run that copy on the folder:

    svc repro verify-script > verify.sh
    bash verify.sh --key issuer.pem <run-output-dir>

It checks, with bash and OpenSSL only: the signature of \`seal.json\` (from \`seal.sig\`, one line of
strict base64) with \`issuer.pem\`, and that \`public_key.pem\` is that key; that \`seal.svg\` is, byte
for byte, the canonical rendering of \`seal.json\` and \`seal.sig\` in every line but the ring and QR
shapes (header, both embedded copies of the payload and signature, frame, every drawn label), and
that the ring and QR lines are bare path data in the renderer's number spelling; that
\`run_manifest.json\` and the outputs hash to the sealed values (naming the files that differ); and that
nothing in the folder is outside the seal. It does not decode the ring or the QR code, nor check
this file's wording: \`svc seal verify\` does.

## Online

${online}`;
}
