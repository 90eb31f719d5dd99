import { contactResidues } from "./docking-pocket.ts";
import type { CompoundDocking } from "./docking-results.ts";
import { anchorId, escapeHtml, formatNumber } from "./format.ts";
import { renderPoseProjection } from "./pose-projection.ts";
import type { PoseRecord } from "./pose-reader.ts";
import { jsonDataBlock, pocketDataId, type StructurePocket } from "./structure-section.ts";

// The card's docking panel (issue 25 item 10): per structure the compound was docked into, its
// score, ligand efficiency and pose-check verdict, the interaction summary (counts by PLIP type and
// the residues), and the pose in the pocket — a 3D viewer on screen (3Dmol.js, opened by a button:
// each viewer holds a WebGL context) and a 2D projection that print shows instead.

/** PLIP's interaction types in its own report order (Salentin et al. 2015), with their labels. */
const INTERACTION_LABELS: readonly (readonly [string, string, string])[] = [
  ["hydrophobic", "hydrophobic contact", "hydrophobic contacts"],
  ["hydrogen_bond", "hydrogen bond", "hydrogen bonds"],
  ["salt_bridge", "salt bridge", "salt bridges"],
  ["pi_stacking", "π-stacking", "π-stacking"],
  ["pi_cation", "π-cation", "π-cation"],
  ["halogen_bond", "halogen bond", "halogen bonds"],
  ["metal_complex", "metal complex", "metal complexes"],
];

/** One structure's docking of this compound, with what the card draws of it. */
export interface CardDocking {
  readonly docking: CompoundDocking;
  readonly pocket: StructurePocket | null;
  readonly pose: PoseRecord | null;
}

/** The docking panel of one card; "" when the compound has no docking record. */
export function renderDockingPanel(candidateId: string, entries: readonly CardDocking[]): string {
  if (entries.length === 0) return "";
  const body = entries.map((entry) => structureBlock(candidateId, entry, entries.length > 1)).join("");
  return `<section class="cp" data-panel="docking"><h4>Docking</h4>${body}</section>`;
}

function structureBlock(candidateId: string, entry: CardDocking, several: boolean): string {
  const { docking, pocket } = entry;
  const profile = pocket?.structure.profile ?? null;
  const where =
    pocket === null ? `structure ${docking.structure}` : pocket.structure.file.replace(/^01_sources\//, "");
  const title = several ? `<h5>${escapeHtml(where)}</h5>` : "";
  if (docking.status !== "docked")
    return `${title}<p class="na-note">Not docked into ${escapeHtml(where)}: ${escapeHtml(docking.reason === "cap" ? "past the per-pod docking budget (--docking-max-compounds)" : (docking.reason ?? "no reason recorded"))}.</p>`;
  const rows: [string, string][] = [
    ["Vina score", `${formatNumber(docking.score, 2)} kcal/mol`],
    [
      "Ligand efficiency",
      `${formatNumber(docking.ligand_efficiency, 3)} kcal/mol per heavy atom (${formatNumber(docking.heavy_atoms, 0)} heavy atoms)`,
    ],
  ];
  if (docking.vinardo !== null)
    rows.push(["Vinardo rescoring", `${formatNumber(docking.vinardo, 2)} kcal/mol`]);
  if (docking.ad4 !== null) rows.push(["AD4 rescoring", `${formatNumber(docking.ad4, 2)} kcal/mol`]);
  if (docking.consensus !== null) rows.push(["Consensus", `${formatNumber(docking.consensus, 2)} kcal/mol`]);
  if (docking.best_receptor !== null && (profile?.receptors ?? 1) > 1)
    rows.push([
      "Best receptor",
      `${docking.best_receptor} (of ${profile?.receptors} conformations; the viewer draws the staged one)`,
    ]);
  const checks = docking.pose_checks;
  rows.push([
    "Pose checks",
    checks === null ? "not recorded" : checks.passed ? "pass" : `fail: ${checks.failed.join(", ")}`,
  ]);
  if (profile !== null)
    rows.push([
      "Profile",
      `${profile.name}${profile.exhaustiveness === null ? "" : `, exhaustiveness ${profile.exhaustiveness}`}${(profile.receptors ?? 1) > 1 ? `, ${profile.receptors} receptors` : ""}${profile.rescoring.length ? `, rescored with ${profile.rescoring.join(" and ")}` : ""}`,
    ]);
  const verdict = checks === null ? "" : checks.passed ? "pass" : "fail";
  const table = `<table class="kv"><tbody>${rows
    .map(
      ([label, value]) =>
        `<tr><th>${escapeHtml(label)}</th><td${label === "Pose checks" && verdict ? ` class="${verdict}"` : ""}>${escapeHtml(value)}</td></tr>`,
    )
    .join("")}</tbody></table>`;
  return `${title}${table}${interactionSummary(entry)}${poseFigure(candidateId, entry, where)}`;
}

/** Counts by PLIP type, then the residues within 4 Å of the pose's heavy atoms. */
function interactionSummary(entry: CardDocking): string {
  const counts = entry.docking.interactions;
  if (counts === null) return `<p class="na-note">No interaction profile (the pose could not be read).</p>`;
  const present = INTERACTION_LABELS.filter(([type]) => (counts[type] ?? 0) > 0);
  const list = present.length
    ? present.map(([type, one, many]) => `${counts[type]} ${counts[type] === 1 ? one : many}`).join(", ")
    : "none found";
  let residues = "";
  if (entry.pose !== null && entry.pocket !== null && entry.pocket.residues.length > 0) {
    const heavy = entry.pose.molecule.atoms
      .filter((atom) => atom.element !== "H")
      .map((atom) => atom.position);
    const near = contactResidues(entry.pocket.residues, heavy).sort((a, b) => a.distance - b.distance);
    residues = near.length
      ? `within 4 Å of the pose: ${near.map((contact) => `${contact.residue.label} (${formatNumber(contact.distance, 1)} Å)`).join(", ")}`
      : "";
  }
  const distinct = counts.residues;
  return `<p class="interactions"><b>Interactions</b> (PLIP criteria): ${escapeHtml(list)}${
    distinct === undefined ? "" : `; ${distinct} residue${distinct === 1 ? "" : "s"} involved`
  }.${residues ? `<br><small>Residues ${escapeHtml(residues)}.</small>` : ""}</p>`;
}

function poseFigure(candidateId: string, entry: CardDocking, where: string): string {
  const { pose, pocket, docking } = entry;
  if (pose === null)
    return `<p class="na-note">Pose file not found${docking.pose_file ? ` (${escapeHtml(docking.pose_file)})` : ""}.</p>`;
  const heavy = pose.molecule.atoms.filter((atom) => atom.element !== "H").map((atom) => atom.position);
  const contacts =
    pocket === null ? [] : contactResidues(pocket.residues, heavy).map((contact) => contact.residue);
  const title = `${candidateId} docked into ${where}: the top pose and the ${contacts.length} residues within 4 Å`;
  const still = renderPoseProjection(pose.molecule, contacts, title);
  const dataId = `pose-${anchorId("card", candidateId)}-${docking.structure}`;
  const viewable = pocket !== null && pocket.residues.length > 0;
  const data = jsonDataBlock(dataId, {
    sdf: pose.sdf,
    contacts: contacts.map((residue) => [residue.chain, residue.resSeq]),
  });
  return `<figure class="pose pose-viewer" data-pose="${escapeHtml(dataId)}" data-pocket="${pocketDataId(docking.structure)}">${
    viewable ? `<button type="button" class="pose-open">Show the pose in 3D</button>` : ""
  }<div class="pose-static">${still}</div><figcaption class="pose-note">${escapeHtml(
    viewable
      ? "Top pose (carbon green in 3D) in the staged structure's pocket; residues within 4 Å as sticks, the rest of the box's residues as lines, the box in blue. Printed: a projection on the ligand's principal plane."
      : "Top pose and the residues within 4 Å, projected on the ligand's principal plane.",
  )}</figcaption>${data}</figure>`;
}
