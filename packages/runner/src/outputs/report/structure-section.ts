import type { CrypticPocketsResultFile } from "@svc/core";
import { DEEP_EXHAUSTIVENESS, DOCKING_POSES, STANDARD_EXHAUSTIVENESS } from "@svc/science/structure";
import { readStructureFile } from "../../inputs/structure-inputs.ts";
import { renderCrypticPockets } from "./cryptic-pockets-section.ts";
import { contactResidues, type PocketResidue, pocketPdb, pocketResidues } from "./docking-pocket.ts";
import type { DockedStructure, DockingProfileView, DockingRun } from "./docking-results.ts";
import { anchorId, escapeHtml, formatNumber } from "./format.ts";
import { renderHistogram, StreamingHistogram } from "./histogram-plot.ts";
import type { PoseReader } from "./pose-reader.ts";

// The report's structure section (issue 25 item 10): per staged structure, which docking profile
// computed it and what that profile does (standard vs deep, issue 25 "Done when"), the box and the
// residues lining it, the distribution of docking scores and the best poses. The pocket's residues
// are embedded once per structure as a JSON data block the cards' 3D viewers read. Last, the
// cryptic pocket hints per structure (cryptic-pockets-section.ts).

/** Best poses listed per structure (the rest are in report.csv and results/molecular_docking.json). */
export const BEST_POSES = 10;
/** Lining residues listed per structure. */
const LINING_SHOWN = 40;

/** Where a staged structure file is, to read its pocket residues. */
export interface StructureFileRef {
  readonly index: number;
  readonly path: string;
  readonly format: "pdb" | "mmcif";
}

/** One structure's pocket for the section and the cards: the residues in its box, or why there are none. */
export interface StructurePocket {
  readonly structure: DockedStructure;
  readonly residues: readonly PocketResidue[];
  /** Why the residues could not be read (file missing, no box); null when they were. */
  readonly missing: string | null;
}

/** Reads every docked structure's pocket residues (the staged file, heavy atoms in the box). */
export async function loadStructurePockets(
  run: DockingRun,
  files: readonly StructureFileRef[],
): Promise<StructurePocket[]> {
  const pockets: StructurePocket[] = [];
  for (const structure of run.structures) {
    const file = files.find((entry) => entry.index === structure.index);
    if (structure.box === null || file === undefined) {
      pockets.push({
        structure,
        residues: [],
        missing: structure.box === null ? "no docking box" : "structure file not given to the report",
      });
      continue;
    }
    try {
      const parsed = await readStructureFile(file.path, file.format);
      pockets.push({ structure, residues: pocketResidues(parsed, structure.box), missing: null });
    } catch (error) {
      pockets.push({ structure, residues: [], missing: (error as Error).message });
    }
  }
  return pockets;
}

/** The id of a structure's pocket data block (read by the pose viewer). */
export function pocketDataId(structure: number): string {
  return `pocket-${structure}`;
}

/** JSON for a `<script type="application/json">` block: `<` escaped so no text can close the element. */
export function jsonDataBlock(id: string, value: unknown): string {
  return `<script type="application/json" id="${escapeHtml(id)}">${JSON.stringify(value).replace(/</g, "\\u003c")}</script>`;
}

export interface StructureSectionInput {
  readonly run: DockingRun;
  readonly pockets: readonly StructurePocket[];
  /** Candidate ids with a card on the page (best poses link to them). */
  readonly carded: ReadonlySet<string>;
  /** Reads a docked compound's top pose (heavy atoms), for the lining residues. */
  readonly poses: PoseReader;
  /** Why molecular_docking has no result, when it has none (its plan outcome). */
  readonly reason: string | null;
  /** results/cryptic_pockets.json; null when the run has none. */
  readonly crypticPockets: CrypticPocketsResultFile | null;
}

/** The structure section; "" when the run staged no structure and planned no docking. */
export async function renderStructureSection(input: StructureSectionInput): Promise<string> {
  const parts = [
    `<section id="structure"><h2>Structure: docking into the staged receptor</h2>`,
    `<p>Each compound's parent was docked with AutoDock Vina into each staged structure's box; the score (kcal/mol, lower binds better) is Vina's estimate, not a binding free energy, and ranks poorly across chemotypes. Ligand efficiency is −score per heavy atom. Pose checks follow PoseBusters (bond lengths and angles, internal clash, protein clash, inside the box); interactions follow PLIP's geometric criteria. Each card has the pose: in 3D on screen, as a projection in print.</p>`,
  ];
  for (const pocket of input.pockets) parts.push(await renderStructure(pocket, input));
  if (input.pockets.length === 0)
    parts.push(
      `<p class="na-note">molecular_docking wrote no result (${escapeHtml(input.reason ?? "not run")}); the module coverage table at the end says why.</p>`,
    );
  const cryptic = renderCrypticPockets(input.crypticPockets);
  if (cryptic !== "") parts.push(cryptic);
  parts.push("</section>");
  return parts.join("\n");
}

async function renderStructure(pocket: StructurePocket, input: StructureSectionInput): Promise<string> {
  const { structure } = pocket;
  const id = `structure-${structure.index}`;
  const head = `<h3 id="${id}">Receptor <code>${escapeHtml(structure.file)}</code>${structure.target ? ` (target ${escapeHtml(structure.target)})` : ""} <small>sources.json pdbs[${structure.index}]</small></h3>`;
  if (structure.reason !== null)
    return `<div class="structure" data-structure="${structure.index}">${head}<p class="err">Not docked: ${escapeHtml(structure.reason)}</p></div>`;
  const docked = [...structure.docked].sort((a, b) => (a.score ?? 0) - (b.score ?? 0));
  const histogram = new StreamingHistogram("Docking score (kcal/mol)", -14, 0, 28);
  for (const compound of docked) histogram.add(compound.score);
  const lining = await liningResidues(pocket, input.poses);
  return `<div class="structure" data-structure="${structure.index}" data-profile="${escapeHtml(structure.profile.name)}">${head}
${profileParagraph(structure.profile)}
${boxParagraph(pocket, lining)}
<div class="hists">${renderHistogram(histogram, "no compound was docked into this structure")}${bestPoses(docked, input.carded)}</div>
${notDocked(structure)}
${pocket.residues.length > 0 ? jsonDataBlock(pocketDataId(structure.index), { pdb: pocketPdb(pocket.residues), box: structure.box }) : ""}
</div>`;
}

/** Which profile computed the structure's results and what the other one would do differently. */
export function profileParagraph(profile: DockingProfileView): string {
  const did = [
    profile.exhaustiveness === null ? null : `exhaustiveness ${profile.exhaustiveness}`,
    profile.poses === null ? null : `${profile.poses} poses`,
    profile.seed === null ? null : `seed ${profile.seed}`,
    profile.scoring === null ? null : `${profile.scoring} scoring`,
    profile.rescoring.length ? `top pose rescored with ${profile.rescoring.join(" and ")}` : "no rescoring",
    profile.receptors === null
      ? null
      : profile.receptors === 1
        ? "the crystal receptor only"
        : `an ensemble of ${profile.receptors} receptor conformations${profile.ensemble_rule ? ` (${profile.ensemble_rule})` : ""}, each compound's score its best over them`,
  ].filter((part) => part !== null);
  const other =
    profile.name === "deep"
      ? `The standard profile searches with exhaustiveness ${STANDARD_EXHAUSTIVENESS} (${DOCKING_POSES} poses) into the crystal receptor only and rescores nothing.`
      : `The deep profile (run mode deep, spec §2.1) searches four times harder (exhaustiveness ${DEEP_EXHAUSTIVENESS}), docks into an ensemble of receptor conformations and rescores the best pose with Vinardo (and AD4); this run did not.`;
  return `<p class="docking-profile">Profile: <b>${escapeHtml(profile.name)}</b> — ${escapeHtml(did.join(", "))}. ${escapeHtml(other)}</p>`;
}

function boxParagraph(pocket: StructurePocket, lining: readonly { label: string; poses: number }[]): string {
  const { box } = pocket.structure;
  const from =
    box?.source === "reference_ligand"
      ? `the reference ligand${pocket.structure.pocket_from ? ` (${pocket.structure.pocket_from})` : ""}, its bounding box + 4 Å a side`
      : "the staged box";
  const boxText =
    box === null
      ? "no box recorded"
      : `centre (${box.center.map((v) => formatNumber(v, 2)).join(", ")}) Å, size ${box.size.map((v) => formatNumber(v, 1)).join(" × ")} Å, from ${from}`;
  const residues =
    pocket.missing !== null
      ? `<p class="na-note">Pocket residues not read: ${escapeHtml(pocket.missing)}.</p>`
      : lining.length === 0
        ? `<p>${pocket.residues.length} protein residues have an atom in the box; no docked pose touches one within 4 Å.</p>`
        : `<p>Residues lining the pocket (a heavy atom within 4 Å of a docked top pose; in brackets, how many of the poses touch it; ${pocket.residues.length} residues have an atom in the box): <span class="lining">${lining
            .slice(0, LINING_SHOWN)
            .map((residue) => `${escapeHtml(residue.label)} (${residue.poses})`)
            .join(
              ", ",
            )}</span>${lining.length > LINING_SHOWN ? ` and ${lining.length - LINING_SHOWN} more` : ""}.</p>`;
  return `<p>Box: ${escapeHtml(boxText)}.</p>${residues}`;
}

async function liningResidues(pocket: StructurePocket, poses: PoseReader) {
  const counts = new Map<string, { label: string; poses: number; order: number }>();
  for (const compound of pocket.structure.docked) {
    const pose = await poses.read(compound.pose_file);
    if (pose === null) continue;
    const heavy = pose.molecule.atoms.filter((atom) => atom.element !== "H").map((atom) => atom.position);
    for (const { residue } of contactResidues(pocket.residues, heavy)) {
      const entry = counts.get(residue.label) ?? { label: residue.label, poses: 0, order: counts.size };
      entry.poses++;
      counts.set(residue.label, entry);
    }
  }
  return [...counts.values()].sort((a, b) => b.poses - a.poses || a.order - b.order);
}

function bestPoses(docked: DockedStructure["docked"], carded: ReadonlySet<string>): string {
  if (docked.length === 0) return "";
  const rescored = docked.some((compound) => compound.vinardo !== null);
  const consensus = docked.some((compound) => compound.consensus !== null);
  const rows = docked
    .slice(0, BEST_POSES)
    .map((compound, at) => {
      const id = escapeHtml(compound.candidate_id);
      const name = carded.has(compound.candidate_id)
        ? `<a href="#${anchorId("card", compound.candidate_id)}">${id}</a>`
        : id;
      const checks =
        compound.pose_checks === null
          ? "—"
          : compound.pose_checks.passed
            ? `<span class="pass">pass</span>`
            : `<span class="fail">fail: ${escapeHtml(compound.pose_checks.failed.join(", "))}</span>`;
      return `<tr><td>${at + 1}</td><td>${name}</td><td data-v="${compound.score ?? ""}">${formatNumber(compound.score, 2)}</td><td>${formatNumber(compound.ligand_efficiency, 3)}</td>${
        rescored ? `<td>${formatNumber(compound.vinardo, 2)}</td>` : ""
      }${consensus ? `<td>${formatNumber(compound.consensus, 2)}</td>` : ""}<td>${checks}</td><td>${formatNumber(compound.interactions?.total ?? null, 0)}</td></tr>`;
    })
    .join("");
  return `<figure class="best-poses"><table class="small"><caption>Best poses: ${Math.min(BEST_POSES, docked.length)} of ${docked.length} docked, by score</caption><thead><tr><th>#</th><th>Compound</th><th>Score (kcal/mol)</th><th>LE (kcal/mol/HA)</th>${
    rescored ? "<th>Vinardo (kcal/mol)</th>" : ""
  }${consensus ? "<th>Consensus (kcal/mol)</th>" : ""}<th>Pose checks</th><th>Interactions</th></tr></thead><tbody>${rows}</tbody></table></figure>`;
}

function notDocked(structure: DockedStructure): string {
  if (structure.not_docked.size === 0) return "";
  const total = [...structure.not_docked.values()].reduce((sum, count) => sum + count, 0);
  return `<p>${total} compound${total === 1 ? "" : "s"} not docked: ${[...structure.not_docked]
    .map(
      ([reason, count]) =>
        `${escapeHtml(reason === "cap" ? "past the per-pod docking budget (--docking-max-compounds)" : reason)} (${count})`,
    )
    .join("; ")}.</p>`;
}
