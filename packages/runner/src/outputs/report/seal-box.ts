import { escapeHtml } from "./format.ts";

/**
 * The seal box, near the top: where the seal is and what it means side by side, in the same
 * weight, so "Sealed" is never read as "scientifically right" (domain notes, "What a seal does NOT
 * attest"). The page is itself a sealed output, written before run_complete answers, so it never
 * says whether the run was sealed: it points at seal/, where the issuer's seal (or the pre-seal)
 * is, and at the verifier (issue 29 item 2: nothing hashed is rewritten to state the outcome).
 */
export function renderSealBox(runId: string): string {
  return `<section class="seal-box" id="seal" aria-label="Seal">
<div class="seal-half"><p class="seal-status">Seal: see <a href="../seal/seal.svg">seal/</a></p><p>This page is one of the outputs the seal covers, written before the run was sealed, so it cannot say whether the issuer sealed it. <code>seal/seal.svg</code>, <code>seal/seal.json</code> and <code>seal/seal.sig</code> beside it are the issuer's seal; <code>seal/preseal.json</code> in their place means run_complete has not answered yet (<code>svc-runner seal --run-dir &lt;run dir&gt;</code> completes it). <code>svc runs status ${escapeHtml(runId)}</code> shows where the run stands.</p></div>
<div class="seal-half"><p class="seal-status">What the seal attests</p>
<p>Only integrity and lineage: that the staged inputs (<code>inputs_sha256</code>), this run's output files (<code>outputs_sha256</code>) and its manifest are exactly those the issuer recorded for run <code>${escapeHtml(runId)}</code>, signed with the issuer's Ed25519 key. It is <b>not</b> a statement that the science is right, that the inputs were sufficient, or that these compounds will work.</p>
<p>Verify against the issuer's key, never the folder's own <code>seal/public_key.pem</code>: <code>svc seal verify &lt;run dir&gt; --issuer &lt;entitlement url&gt;</code>, or with a key pinned beforehand (<code>svc trust add</code>, or <code>--key issuer.pem</code>), or online at the issuer's <code>POST /api/seal/verify</code>.</p></div>
</section>`;
}
