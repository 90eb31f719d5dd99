import { createHash } from "node:crypto";

/** The verification page and the Content-Security-Policy it is served with. */
export interface VerifyPage {
  readonly html: string;
  readonly csp: string;
}

const STYLE = `
body { font: 15px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 60rem; padding: 0 1rem; color: #1b1f24; }
h1 { font-size: 1.4rem; }
#drop { display: block; border: 2px dashed #8a94a0; border-radius: 8px; padding: 2rem; text-align: center; cursor: pointer; }
#result[data-state="VERIFIED"] #state { color: #0a6b2b; }
#result[data-state="INVALID"] #state, #result[data-state="REVOKED"] #state, #result[data-state="NOT_ISSUED_HERE"] #state, #result[data-state="ISSUED_SEAL_MISMATCH"] #state { color: #a40e26; }
#result[data-state="UNVERIFIED"] #state, #result[data-state="PRESEAL_UNSIGNED"] #state, #result[data-state="REVOCATION_UNKNOWN"] #state { color: #8a5a00; }
#state { font-size: 1.6rem; font-weight: 700; }
table { border-collapse: collapse; width: 100%; }
td { border-top: 1px solid #d0d7de; padding: .25rem .5rem; vertical-align: top; overflow-wrap: anywhere; }
tr[data-ok="false"] td:first-child { color: #a40e26; font-weight: 700; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; }
dd { margin: 0; overflow-wrap: anywhere; font-family: ui-monospace, monospace; }
#funding, #attestation, #claim { font-weight: 600; }
#canonical { width: 320px; height: 320px; border: 1px solid #d0d7de; }
`;

const sha256Source = (text: string): string =>
  `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;

/**
 * The page around the bundled script: static markup only, the script and style allowed by hash
 * (CSP Level 3 §8), nothing loaded from anywhere. `connect-src 'self'` lets a served page read
 * the issuer's keys and revocation answer; `img-src blob:` shows the canonical rendering.
 */
export function renderVerifyPageHtml(script: string): VerifyPage {
  // the bundle sits inside <script>: no sequence in it may close the element or open a comment
  const inline = script.replace(/<\/(script)/gi, "<\\/$1").replace(/<!--/g, "<\\!--");
  const csp = [
    "default-src 'none'",
    `script-src ${sha256Source(inline)}`,
    `style-src ${sha256Source(STYLE)}`,
    "img-src blob:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "object-src 'none'",
  ].join("; ");
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Verify a seal</title>
<style>${STYLE}</style>
</head>
<body>
<h1>Verify a seal</h1>
<p>Choose or drop a <code>seal.svg</code>. It is verified in this browser with the same code as
<code>svc seal verify</code>, against the issuer's published keys. The picture shown is the
canonical rendering of what was signed, never the file you chose.</p>
<p>Keys: <span id="keys-source">loading…</span><br>
<label>Keys file (<code>GET /api/seal/keys</code> saved as JSON): <input id="keys-file" type="file" accept=".json,application/json"></label></p>
<label id="drop">Drop <code>seal.svg</code> here or choose it: <input id="seal-file" type="file" accept=".svg,image/svg+xml"></label>
<section id="result" data-status="idle">
<h2>Result <span id="file-name"></span></h2>
<p><span id="state"></span> <code id="reason-code"></code></p>
<p id="reason"></p>
<p id="revocation-note"></p>
<h3>Checks</h3>
<table><thead><tr><th></th><th>check</th><th>detail</th><th>code</th></tr></thead><tbody id="checks"></tbody></table>
<h3>Signed facts</h3>
<p>Listed only for a VERIFIED seal.</p>
<p id="attestation"></p>
<p id="claim"></p>
<p id="funding"></p>
<dl id="facts"></dl>
<div id="claims-section" hidden>
<h3>Unsigned claims</h3>
<p>A pre-seal carries no signature: anyone can write one for any folder, and the issuer never saw it.</p>
<dl id="claims"></dl>
</div>
<h3>Canonical rendering</h3>
<img id="canonical" alt="the canonical rendering of the signed payload" hidden>
</section>
<script>${inline}</script>
</body>
</html>
`;
  return { html, csp };
}
