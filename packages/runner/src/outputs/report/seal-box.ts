import { PRESEAL_CAUSE } from "../build-results.ts";
import type { SealState } from "../run-facts.ts";
import { escapeHtml } from "./format.ts";

// Markers around the box: a pre-seal rewrites only this part of the finished report (issue 12 item 6).
export const SEAL_BOX_START = "<!--seal-box-->";
export const SEAL_BOX_END = "<!--/seal-box-->";

/**
 * The seal box, near the top: the status and what it means side by side, in the same weight, so
 * "Sealed" is never read as "scientifically right" (domain notes, "What a seal does NOT attest").
 */
export function renderSealBox(seal: SealState, runId: string): string {
  const status =
    seal.status === "sealed"
      ? `<p class="seal-status">Sealed</p><p>The issuer signed this run's hashes at completion: <code>seal/seal.svg</code>, <code>seal/seal.json</code>, <code>seal/seal.sig</code>.</p>`
      : `<p class="seal-status">Pending online verification</p><p>${escapeHtml(PRESEAL_CAUSE[seal.reason])}; <code>seal/preseal.json</code> records the hashes. Complete it with <code>svc-runner seal --run-dir &lt;run dir&gt;</code>.</p>`;
  return `${SEAL_BOX_START}<section class="seal-box" id="seal" aria-label="Seal">
<div class="seal-half">${status}</div>
<div class="seal-half"><p class="seal-status">What the seal attests</p>
<p>Only integrity and lineage: that the staged inputs (<code>inputs_sha256</code>), this run's output files (<code>outputs_sha256</code>) and its manifest are exactly those the issuer recorded for run <code>${escapeHtml(runId)}</code>, signed with the issuer's Ed25519 key. It is <b>not</b> a statement that the science is right, that the inputs were sufficient, or that these compounds will work.</p>
<p>Verify against the issuer's key, never the folder's own <code>seal/public_key.pem</code>: <code>svc seal verify &lt;run dir&gt; --issuer &lt;entitlement url&gt;</code>, or with a key pinned beforehand (<code>svc trust add</code>, or <code>--key issuer.pem</code>), or online at the issuer's <code>POST /api/seal/verify</code>.</p></div>
</section>${SEAL_BOX_END}`;
}
