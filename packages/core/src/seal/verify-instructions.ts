import type { SealPayload } from "./seal-payload.ts";

/** Text of `seal/VERIFY.md`: how anyone checks this seal, offline and online. */
export function verifyInstructions(payload: SealPayload): string {
  const online = payload.verify_url
    ? `Open ${payload.verify_url} and upload \`seal.svg\`, or:\n\n    curl -F file=@seal.svg ${new URL("/api/seal/verify", payload.verify_url)}\n`
    : `Upload \`seal.svg\` to the issuing service's \`POST /api/seal/verify\` (issuer: ${payload.issuer}):\n\n    curl -H 'Content-Type: image/svg+xml' --data-binary @seal.svg <entitlement-url>/api/seal/verify\n`;
  return `# Verifying seal ${payload.seal_id}

Run \`${payload.run_id}\` of project \`${payload.project_id}\` was sealed by ${payload.issuer} at ${payload.issued_at}
with key \`${payload.key_id}\`.

## What the seal attests

The run's staged inputs (\`inputs_sha256\` ${payload.inputs_sha256}), its run manifest
(\`run_manifest_sha256\` ${payload.run_manifest_sha256}) and its outputs at completion
(\`outputs_sha256\` ${payload.outputs_sha256}) are the ones the issuer recorded for this consumed run.
It does not attest that the science is right, that the inputs were sufficient, or that a rerun
right was not used elsewhere.

## Offline, with the svc CLI

    svc seal verify seal.svg --key public_key.pem
    svc seal verify <run-output-dir>

VERIFIED means: the Ed25519 signature over \`seal.json\` is valid for the trusted key, the ring of
the seal decodes to the seal id, and its QR code decodes to the barcode digest, which matches the
three hashes above.

## Offline, with standard tools

\`seal.json\` holds exactly the signed bytes (canonical JSON, RFC 8785). With OpenSSL 3:

    base64 -d seal.sig > seal.sig.bin
    openssl pkeyutl -verify -pubin -inkey public_key.pem -rawin -in seal.json -sigfile seal.sig.bin

Recompute the output digest (format svc-tree/v1, the seal/ folder excluded) from the run folder:

    find . -type f ! -path './seal/*' -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sed 's|  \\./|  |' | sha256sum

## Online

${online}`;
}
