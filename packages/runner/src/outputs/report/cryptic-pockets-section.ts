import { type CrypticPocketsResultFile, RUN_FILES } from "@svc/core";
import { escapeHtml, formatNumber } from "./format.ts";

// The report's cryptic pocket hints (issue 40 item 5), EXPLORATORY, inside the structure section:
// per staged structure, each transient cavity cryptic_pockets found with the normal modes that open
// it, in the module's own words (its `hint`: "a hint for where a pocket may open, not evidence that
// it does"), or that the structure has none and why. Only fields of core's schema are read.

type CrypticStructure = CrypticPocketsResultFile["structures"][number];
type Executed = Extract<CrypticStructure["result"], { status: "executed" }>;

/** Lining residues listed per transient cavity (all of them are in results/cryptic_pockets.json). */
const LINING_SHOWN = 15;

/** The hints of every structure; "" when the run has no cryptic_pockets result. */
export function renderCrypticPockets(file: CrypticPocketsResultFile | null): string {
  if (file === null) return "";
  const rule = file.structures.find(
    (structure): structure is CrypticStructure & { result: Executed } =>
      structure.result.status === "executed",
  )?.result.rule;
  return [
    `<div class="cryptic-pockets" id="cryptic-pockets"><h3>Cryptic pocket hints <small>EXPLORATORY</small></h3>`,
    `<p>cryptic_pockets runs ConCavity on each receptor and on its ANM conformers (an elastic network model's lowest normal modes); a cavity a conformer has and the crystal receptor does not is transient. Each transient cavity is a hint for where a pocket may open, not evidence that it does: the network moves whole residues harmonically about one structure, and transient cavities have no reference set here (${RUN_FILES.crypticPocketsResult} has every cavity).${rule === undefined ? "" : ` <small>Rule: ${escapeHtml(rule)}.</small>`}</p>`,
    ...file.structures.map(renderStructureHints),
    "</div>",
  ].join("\n");
}

function renderStructureHints(structure: CrypticStructure): string {
  const head = `<h4>Receptor <code>${escapeHtml(structure.file)}</code>${structure.target ? ` (target ${escapeHtml(structure.target)})` : ""} <small>sources.json pdbs[${structure.index}]</small></h4>`;
  const { result } = structure;
  const body =
    result.status === "not_assessed"
      ? `<p class="na-note">No cavity hint: not assessed (${escapeHtml(result.reason)}).</p>`
      : `${crystalParagraph(result)}${transientHints(result)}`;
  return `<div class="cryptic" data-structure="${structure.index}">${head}${body}</div>`;
}

function crystalParagraph(result: Executed): string {
  const [largest] = result.crystal;
  const count = result.crystal.length;
  if (largest === undefined) return "<p>ConCavity finds no cavity on the crystal receptor.</p>";
  const atPocket = result.crystal.filter((cavity) => cavity.at_docking_pocket === true);
  const pocket =
    result.docking_pocket === null
      ? ""
      : `; at the docking pocket (${escapeHtml(result.docking_pocket)}): ${
          atPocket.length === 0
            ? "none"
            : atPocket
                .map((cavity) => `cavity ${cavity.rank} by size (${formatNumber(cavity.volume_a3, 1)} Å³)`)
                .join(", ")
        }`;
  return `<p>ConCavity finds ${count} cavit${count === 1 ? "y" : "ies"} on the crystal receptor, the largest ${formatNumber(largest.volume_a3, 1)} Å³${pocket}.</p>`;
}

function transientHints(result: Executed): string {
  if (result.transient.length === 0)
    return `<p class="cryptic-none">No cavity hint for this structure: ${escapeHtml(result.summary)}.</p>`;
  const items = result.transient.map((cavity, at) => {
    const pocket =
      cavity.at_docking_pocket === null
        ? ""
        : `; ${cavity.at_docking_pocket ? "reaches" : "does not reach"} the docking pocket`;
    const lining = cavity.lining_residues;
    const residues = `${lining.slice(0, LINING_SHOWN).map(escapeHtml).join(", ")}${lining.length > LINING_SHOWN ? ` and ${lining.length - LINING_SHOWN} more` : ""}`;
    return `<li data-modes="${cavity.modes.join(",")}"><b>Transient cavity ${at + 1}</b>: ${escapeHtml(cavity.hint)}. Opened in ${escapeHtml(cavity.opened_in.join(", "))}; ${formatNumber(cavity.volume_a3, 1)} Å³, ${formatNumber(cavity.crystal_overlap * 100, 0)} % of its points near a crystal cavity${pocket}; lined by ${residues}.</li>`;
  });
  return `<ol class="cryptic-hints">${items.join("")}</ol>`;
}
