import type {
  CompoundFinding,
  DrugLikenessFinding,
  MolecularLogicFinding,
  PreparedCompound,
  RuleResult,
} from "@svc/science";
import type { RunFacts, SealStatus } from "./run-facts.ts";

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** One table row per compound, streamed into the report body (depiction inline, no fetches). */
export function renderCompoundRow(
  compound: PreparedCompound,
  findings: ReadonlyMap<string, CompoundFinding>,
): string {
  const ml = findings.get("molecular_logic") as MolecularLogicFinding | undefined;
  const dl = findings.get("kinase_drug_likeness") as DrugLikenessFinding | undefined;
  const row = compound.row;
  const name = row.name ? `<br><small>${escapeHtml(row.name)}</small>` : "";
  const depiction = compound.ok
    ? `<div class="mol">${compound.chem.depiction_svg}</div>`
    : `<div class="err">no depiction</div>`;
  const identity = compound.ok
    ? `<code>${escapeHtml(compound.chem.parent_smiles)}</code><br><small>${escapeHtml(compound.chem.inchikey ?? "no InChIKey")}</small>${
        ml?.duplicate_of ? `<br><b>duplicate of ${escapeHtml(ml.duplicate_of)}</b>` : ""
      }${compound.chem.fragment_count > 1 ? `<br><small>${compound.chem.fragment_count} fragments, parent kept</small>` : ""}`
    : `<span class="err">${escapeHtml(compound.error)}</span><br><code>${escapeHtml(row.smiles)}</code>`;
  const d = dl?.descriptors;
  const props = d
    ? `MW ${d.mw}<br>cLogP ${d.clogp}<br>TPSA ${d.tpsa}<br>HBD ${d.hbd} · HBA ${d.hba}<br>RotB ${d.rotatable_bonds} · ArR ${d.aromatic_rings}<br>Fsp3 ${d.fsp3}`
    : "—";
  const rules = dl?.rules
    ? (["lipinski", "veber", "egan"] as const)
        .map((rule) => ruleBadge(rule, dl.rules?.[rule] as RuleResult))
        .join("<br>")
    : "not assessed";
  const eids = [...findings.values()].map((finding) => escapeHtml(finding.evidence_id)).join("<br>");
  return `<tr><td>${escapeHtml(row.candidateId)}${name}</td><td>${depiction}</td><td>${identity}</td><td>${props}</td><td>${rules}</td><td><small>${eids}</small></td></tr>\n`;
}

function ruleBadge(rule: string, result: RuleResult): string {
  const title = result.violations.length > 0 ? ` title="${escapeHtml(result.violations.join("; "))}"` : "";
  return `<span class="${result.pass ? "pass" : "fail"}"${title}>${rule} ${result.pass ? "pass" : "fail"}${
    result.violations.length > 0 ? ` (${result.violations.length})` : ""
  }</span>`;
}

const STYLE = `body{font-family:system-ui,sans-serif;margin:2em;color:#1a1a1a}table{border-collapse:collapse;width:100%}
td,th{border:1px solid #ccc;padding:4px 6px;vertical-align:top;font-size:13px}th{background:#f0f0f0}
.mol svg{width:200px;height:140px}.pass{color:#126b12}.fail{color:#a11}.err{color:#a11}.missing{color:#a11;font-weight:bold}
code{font-size:11px;word-break:break-all}.box{border:1px solid #999;padding:8px 12px;margin:1em 0}`;

/** Everything above the compound table. */
export function renderReportHead(facts: RunFacts, seal: SealStatus): string {
  const c = facts.counts;
  const missing = c.missing_required.length
    ? `<ul>${c.missing_required.map((id) => `<li class="missing">${escapeHtml(id)} — missing proof</li>`).join("")}</ul>`
    : "<p>none</p>";
  const sealText =
    seal === "sealed"
      ? "Sealed at run completion: <code>seal/seal.svg</code> attests these outputs. Verify against the issuer's key, never the folder's own <code>public_key.pem</code>: <code>svc seal verify &lt;run dir&gt; --issuer &lt;entitlement url&gt;</code> (or a key pinned with <code>svc trust add</code>), or online at the issuer's <code>POST /api/seal/verify</code>."
      : "Pending online verification: run_complete was unreachable, <code>seal/preseal.json</code> records the hashes. Complete with <code>svc-runner seal --run-dir &lt;run dir&gt;</code>.";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Audit report ${escapeHtml(facts.run_id)}</title>
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<style>${STYLE}</style></head><body>
<h1>Computational audit — ${escapeHtml(facts.project_id)}</h1>
<p>Run <code>${escapeHtml(facts.run_id)}</code> · mode ${facts.mode} · module ${escapeHtml(facts.module_id)} · category <code>${escapeHtml(
    facts.plan.category.category_id,
  )}</code> (${facts.plan.category.forced ? "forced by preset" : escapeHtml(facts.plan.category.rule)})</p>
<div class="box"><b>Seal status:</b> ${sealText}</div>
<div class="box"><b>Claim strength: ${c.claim_strength}</b> · required modules executed ${c.required_executed} of ${c.required} (coverage ${c.coverage_ratio})<br>
Inputs <code>${facts.inputs_sha256}</code> · ${facts.compounds} compounds</div>
<h2>Missing proof (required modules not executed)</h2>${missing}
<h2>Compounds</h2>
<table><thead><tr><th>Candidate</th><th>Structure</th><th>Parent SMILES / InChIKey</th><th>Properties</th><th>Rules</th><th>Evidence</th></tr></thead><tbody>
`;
}

/** Everything below the compound table. */
export function renderReportTail(facts: RunFacts): string {
  const modules = facts.plan.modules
    .map(
      (m) =>
        `<tr><td>${escapeHtml(m.module_id)}</td><td>${m.bucket}</td><td>${m.risk_channel}</td><td>${m.outcome}${
          m.reason ? `: ${m.reason}` : ""
        }</td><td>${escapeHtml(m.detail ?? "")}</td></tr>`,
    )
    .join("\n");
  return `</tbody></table>
<h2>Module coverage</h2>
<table><thead><tr><th>Module</th><th>Bucket</th><th>Risk channel</th><th>Outcome</th><th>Detail</th></tr></thead><tbody>
${modules}
</tbody></table>
<p><small>Policy ${escapeHtml(facts.plan.policy_version)}. A seal attests which inputs and outputs this run had; it does not attest that the science is right or that the inputs were sufficient.</small></p>
</body></html>
`;
}
