import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { CrypticPocketsStructureResult } from "@svc/core";
import type { MethodCard } from "../analysis-module.ts";
import { selectCalphas } from "./amino-acids.ts";
import { displaceStructureText, ENSEMBLE_CALPHA_RMSD, planAnmConformers } from "./anm-conformers.ts";
import {
  fractionNear,
  LINING_RADIUS_ANGSTROM,
  OVERLAP_FRACTION,
  OVERLAP_RADIUS_ANGSTROM,
  POCKET_RADIUS_ANGSTROM,
  PointIndex,
  rankBySize,
  transientOverlap,
} from "./cavity-overlap.ts";
import { type ConcavityCavity, concavityGridSpacing, parseConcavityPockets } from "./concavity-output.ts";
import type { NmaPocket } from "./dynamics-nma.ts";
import { parsePdb } from "./parse-pdb.ts";
import { isInBox } from "./pocket.ts";
import { runTool } from "./run-tool.ts";
import type { ParsedStructure, StructureAtom } from "./structure-atom.ts";
import type { Vec3 } from "./vec3.ts";

/**
 * The most Cα atoms a receptor may have: the largest receptor measured. On the shared 1of6 receptor
 * (2,770 Cα) one ConCavity run took 3.1–22.1 CPU-s (its search for a threshold takes more iterations
 * on some conformers), about 80 CPU-s for the seven runs, at a load average near 15; nothing larger was
 * measured, so nothing larger is run.
 */
export const CRYPTIC_MAX_CALPHAS = 3000;
/** CPU budget of one ConCavity run (RLIMIT_CPU): about three times the slowest run measured. */
export const CONCAVITY_CPU_SECONDS = 60;

/** The wording's general form, for the card and the summary (issue 40 item 5: a hint, never a finding). */
export const CRYPTIC_HINT =
  "a cavity that opens along a normal mode in an elastic network model: a hint for where a pocket may open, not evidence that it does";

/** The wording one transient cavity carries, naming the modes (1-based, lowest first) that open it. */
export function crypticHint(modes: readonly number[]): string {
  const named = modes.length === 1 ? `normal mode ${modes[0]}` : `normal modes ${modes.join(", ")}`;
  return `a cavity that opens along ${named} in an elastic network model: a hint for where a pocket may open, not evidence that it does`;
}

// The result's shape is core's contract for results/cryptic_pockets.json (docs/contracts/cryptic-pockets-result.md):
// the report reads the file with that strict schema, so what is written here is typed by it and no
// field is written that the schema does not name. Types only: the compound workers load no core code.

/** A cavity of the crystal receptor: rank by size, grid points, volume, lining residues, at the docking pocket. */
export type CavitySummary = CrypticPocketsExecuted["crystal"][number];

/** A cavity of the ANM conformers the crystal receptor does not have, with the modes that open it and its hint. */
export type TransientCavity = CrypticPocketsExecuted["transient"][number];

export type CrypticPocketsResult = CrypticPocketsStructureResult;

type CrypticPocketsExecuted = Extract<CrypticPocketsResult, { status: "executed" }>;

/** The rule in words, for the card and the result. */
export const CRYPTIC_RULE =
  "ConCavity 0.1 (Ligsite grid, search extraction, its defaults: no conservation input) on the crystal receptor's protein heavy atoms and on each " +
  `ANM conformer (the 3 lowest non-zero modes, +/−${ENSEMBLE_CALPHA_RMSD} Å Cα RMSD); a conformer's cavity is transient when under ` +
  `${OVERLAP_FRACTION * 100} % of its grid points lie within ${OVERLAP_RADIUS_ANGSTROM} Å of a crystal cavity point; ` +
  `cavities ranked by size; a residue lines a cavity with a heavy atom within ${LINING_RADIUS_ANGSTROM} Å of a point; ` +
  `a cavity is at the docking pocket with a point within ${POCKET_RADIUS_ANGSTROM} Å of a reference-ligand heavy atom or inside the box`;

const isHydrogen = (atom: StructureAtom) => atom.element === "H" || atom.element === "D";

/** One-character chain IDs for the PDB text, in order (mmCIF's longer IDs are renamed to these). */
const CHAIN_IDS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** ConCavity's input: the PDB text, and each written atom's residue label as the staged file names it. */
export type ConcavityInput =
  | { readonly ok: true; readonly text: string; readonly labels: readonly string[] }
  | { readonly ok: false; readonly reason: string };

/**
 * The protein's heavy atoms as ATOM records (waters, ions, ligands and hydrogens left out): ConCavity's
 * input, and the ANM conformers' (anm-conformers.ts keys residues by chain and number, so a chain ID
 * longer than PDB's one column is renamed, never cut into another chain's). `labels` keeps the staged
 * file's own `RES:CHAIN:NUM` of each written atom, in order, for the lining residues.
 */
export function concavityInput(structure: ParsedStructure): ConcavityInput {
  const atoms = structure.atoms.filter((atom) => !atom.hetero && !isHydrogen(atom));
  const chains = [...new Set(atoms.map((atom) => atom.chain))];
  const rename = chains.some((chain) => chain.length > 1);
  if (rename && chains.length > CHAIN_IDS.length)
    return {
      ok: false,
      reason: `${chains.length} chains, more than PDB's ${CHAIN_IDS.length} one-character chain IDs`,
    };
  const chainOf = new Map(
    chains.map((chain, at) => [chain, rename ? (CHAIN_IDS[at] as string) : chain || " "]),
  );
  const outside = atoms.find((atom) => atom.resSeq > 9999 || atom.resSeq < -999);
  if (outside !== undefined)
    return { ok: false, reason: `residue number ${outside.resSeq} does not fit PDB's four columns` };
  const lines = atoms.map((atom, at) => {
    const name = atom.name.length >= 4 ? atom.name.slice(0, 4) : ` ${atom.name.padEnd(3)}`;
    const [x, y, z] = atom.position.map((value) => value.toFixed(3).padStart(8));
    return (
      `ATOM  ${String((at % 99999) + 1).padStart(5)} ${name} ${atom.resName.slice(0, 3).padStart(3)} ` +
      `${chainOf.get(atom.chain)}${String(atom.resSeq).padStart(4)}${(atom.iCode || " ").slice(0, 1)}   ` +
      `${x}${y}${z}${atom.occupancy.toFixed(2).padStart(6)}${atom.bFactor.toFixed(2).padStart(6)}          ` +
      `${atom.element.slice(0, 2).padStart(2)}`
    );
  });
  return {
    ok: true,
    text: `${lines.join("\n")}\nEND\n`,
    labels: atoms.map((atom) => `${atom.resName}:${atom.chain}:${atom.resSeq}${atom.iCode}`),
  };
}

/**
 * Residues with a heavy atom within the lining radius of a cavity point, in file order: `positions`
 * are the written atoms' (crystal or conformer), `labels` their residues as {@link concavityInput} gives them.
 */
export function liningResidues(
  positions: readonly Vec3[],
  labels: readonly string[],
  points: readonly Vec3[],
): string[] {
  const index = new PointIndex(points, LINING_RADIUS_ANGSTROM);
  const lining = new Set<string>();
  positions.forEach((position, at) => {
    if (index.anyWithin(position)) lining.add(labels[at] as string);
  });
  return [...lining];
}

/** Whether a cavity reaches the docking pocket (see {@link CRYPTIC_RULE}); null without a pocket. */
export function atDockingPocket(points: readonly Vec3[], pocket: NmaPocket | null): boolean | null {
  if (pocket === null) return null;
  if (pocket.kind === "box") return points.some((point) => isInBox(pocket.box, point));
  const ligand = new PointIndex(pocket.atoms, POCKET_RADIUS_ANGSTROM);
  return points.some((point) => ligand.anyWithin(point));
}

interface ConcavityRun {
  readonly cavities: readonly ConcavityCavity[];
  readonly spacing: number;
  readonly cpuMs: number | null;
}

/** Runs ConCavity on one receptor text in its own folder (it writes next to its input, named after it). */
export async function runConcavity(
  receptorPdb: string,
  dir: string,
): Promise<ConcavityRun | { reason: string }> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "receptor.pdb"), receptorPdb);
  const run = await runTool("concavity", ["-print_grid_pdb", "1", "receptor.pdb", "cc"], {
    cwd: dir,
    cpuSeconds: CONCAVITY_CPU_SECONDS,
  });
  if (run.spawnError !== null)
    return { reason: `concavity could not start (Debian concavity): ${run.spawnError}` };
  if (run.status !== 0)
    return {
      reason: `concavity failed (${run.signal ?? `exit ${run.status}`}${run.signal === "SIGXCPU" ? `, past its ${CONCAVITY_CPU_SECONDS} CPU-s budget` : ""}): ${run.stderr.trim().slice(0, 200)}`,
    };
  const parsed = parseConcavityPockets(await readFile(join(dir, "receptor_cc_pocket.pdb"), "utf8"));
  if (!parsed.ok) return { reason: parsed.reason };
  const dx = await readFile(join(dir, "receptor_cc.dx"), "utf8");
  const spacing = concavityGridSpacing(dx.slice(0, 400));
  if (spacing === null) return { reason: "concavity's .dx grid has no spacing" };
  return { cavities: parsed.cavities, spacing, cpuMs: run.cpuMs };
}

const round = (value: number, digits = 3) => Number(value.toFixed(digits));

/**
 * cryptic_pockets for one structure (issue 40 item 5; EXPLORATORY): ConCavity's cavities on the
 * crystal receptor and on each ANM conformer of anm-conformers.ts, the conformers' cavities that no
 * crystal cavity overlaps reported as transient — each worded as {@link CRYPTIC_HINT}.
 */
export async function analyseCrypticPockets(
  structure: ParsedStructure,
  pocket: NmaPocket | null,
  workDir: string,
): Promise<CrypticPocketsResult> {
  const started = performance.now();
  const calphaCount = selectCalphas(structure).length;
  if (calphaCount < 3)
    return {
      status: "not_assessed",
      reason: `${calphaCount} Cα atoms: too few for a network`,
      calpha_count: calphaCount,
    };
  if (calphaCount > CRYPTIC_MAX_CALPHAS)
    return {
      status: "not_assessed",
      reason: `${calphaCount} Cα atoms, more than the ${CRYPTIC_MAX_CALPHAS} cryptic_pockets assesses (seven ConCavity runs and the ANM modes per structure)`,
      calpha_count: calphaCount,
    };
  const input = concavityInput(structure);
  if (!input.ok) return { status: "not_assessed", reason: input.reason, calpha_count: calphaCount };
  const crystalText = input.text;
  const positionsOf = (text: string) => parsePdb(text).atoms.map((atom) => atom.position);
  const crystalPositions = positionsOf(crystalText);
  const plan = planAnmConformers(crystalText);
  if (plan.status !== "planned")
    return { status: "not_assessed", reason: plan.reason, calpha_count: calphaCount };
  let cpuMs = 0;
  let cpuRead = false;
  const account = (run: ConcavityRun) => {
    if (run.cpuMs !== null) {
      cpuMs += run.cpuMs;
      cpuRead = true;
    }
  };
  const crystal = await runConcavity(crystalText, join(workDir, "crystal"));
  if ("reason" in crystal)
    return { status: "not_assessed", reason: crystal.reason, calpha_count: calphaCount };
  account(crystal);
  const volume = (points: number, spacing: number) => round(points * spacing ** 3, 1);
  const crystalSummaries = rankBySize(crystal.cavities).map((at, rank): CavitySummary => {
    const cavity = crystal.cavities[at] as ConcavityCavity;
    return {
      rank: rank + 1,
      points: cavity.points.length,
      volume_a3: volume(cavity.points.length, crystal.spacing),
      lining_residues: liningResidues(crystalPositions, input.labels, cavity.points),
      at_docking_pocket: atDockingPocket(cavity.points, pocket),
    };
  });
  const crystalIndex = new PointIndex(
    crystal.cavities.flatMap((cavity) => cavity.points),
    OVERLAP_RADIUS_ANGSTROM,
  );
  const conformers: CrypticPocketsExecuted["conformers"] = [];
  const groups: { points: readonly Vec3[]; index: PointIndex; members: TransientCavity[] }[] = [];
  for (const conformer of plan.conformers) {
    const text = displaceStructureText(crystalText, plan, conformer);
    const run = await runConcavity(text, join(workDir, conformer.label));
    if ("reason" in run)
      return {
        status: "not_assessed",
        reason: `${conformer.label}: ${run.reason}`,
        calpha_count: calphaCount,
      };
    account(run);
    const positions = positionsOf(text);
    let transientCount = 0;
    for (const cavity of run.cavities) {
      const { transient, overlap } = transientOverlap(cavity.points, crystalIndex);
      if (!transient) continue;
      transientCount++;
      const record: TransientCavity = {
        opened_in: [conformer.label],
        modes: [conformer.mode],
        points: cavity.points.length,
        volume_a3: volume(cavity.points.length, run.spacing),
        crystal_overlap: round(overlap),
        lining_residues: liningResidues(positions, input.labels, cavity.points),
        at_docking_pocket: atDockingPocket(cavity.points, pocket),
        hint: crypticHint([conformer.mode]),
      };
      // The same cavity opened by several conformers is one transient cavity: the overlap rule again.
      const group = groups.find(
        (candidate) =>
          fractionNear(cavity.points, candidate.index) >= OVERLAP_FRACTION ||
          fractionNear(candidate.points, new PointIndex(cavity.points, OVERLAP_RADIUS_ANGSTROM)) >=
            OVERLAP_FRACTION,
      );
      if (group === undefined)
        groups.push({
          points: cavity.points,
          index: new PointIndex(cavity.points, OVERLAP_RADIUS_ANGSTROM),
          members: [record],
        });
      else group.members.push(record);
    }
    conformers.push({
      label: conformer.label,
      mode: conformer.mode,
      eigenvalue: round(conformer.eigenvalue, 6),
      cavities: run.cavities.length,
      transient: transientCount,
    });
  }
  const transient = groups
    .map(({ members }): TransientCavity => {
      const modes = [...new Set(members.map((member) => member.modes[0] as number))].sort((a, b) => a - b);
      const largest = [...members].sort((a, b) => b.points - a.points)[0] as TransientCavity;
      return {
        ...largest,
        opened_in: members.map((member) => member.opened_in[0] as string),
        modes,
        hint: crypticHint(modes),
        at_docking_pocket:
          pocket === null ? null : members.some((member) => member.at_docking_pocket === true),
      };
    })
    .sort((a, b) => b.opened_in.length - a.opened_in.length || b.points - a.points);
  const atPocket = transient.filter((cavity) => cavity.at_docking_pocket === true).length;
  return {
    status: "executed",
    risk: "EXPLORATORY",
    calpha_count: calphaCount,
    rule: CRYPTIC_RULE,
    docking_pocket:
      pocket === null ? null : pocket.kind === "box" ? "the docking box" : `reference ligand ${pocket.label}`,
    crystal: crystalSummaries,
    conformers,
    transient,
    summary:
      transient.length === 0
        ? `no transient cavity: every cavity ConCavity finds in the ${plan.conformers.length} ANM conformers overlaps a crystal one`
        : `${transient.length} transient cavit${transient.length === 1 ? "y" : "ies"} in the ${plan.conformers.length} ANM conformers` +
          (pocket === null ? "" : `, ${atPocket} at the docking pocket`) +
          `: each ${CRYPTIC_HINT}`,
    cost: {
      concavity_runs: 1 + plan.conformers.length,
      concavity_cpu_s: cpuRead ? round(cpuMs / 1000, 2) : null,
      wall_s: round((performance.now() - started) / 1000, 2),
    },
  };
}

export const CRYPTIC_POCKETS_METHOD: MethodCard = {
  what:
    "EXPLORATORY. Per staged structure (deep profile only): ConCavity's cavities (its Ligsite grid and search extraction, defaults, " +
    "no conservation input) on the crystal receptor's protein heavy atoms and on each of the six ANM conformers the deep docking " +
    `profile uses; ${CRYPTIC_RULE}. Each transient cavity is reported with the conformers and modes that open it, its size, its ` +
    `lining residues and whether it reaches the docking pocket, worded as "${CRYPTIC_HINT}".`,
  citations: [
    "Capra JA, Laskowski RA, Thornton JM, Singh M, Funkhouser TA. Predicting protein ligand binding sites by combining evolutionary sequence conservation and 3D structure. PLoS Comput Biol. 2009;5(12):e1000585 (ConCavity)",
    "Atilgan AR, Durell SR, Jernigan RL, Demirel MC, Keskin O, Bahar I. Anisotropy of fluctuation dynamics of proteins with an elastic network model. Biophys J. 2001;80(1):505-515 (ANM)",
    "Bakan A, Bahar I. Computational generation of inhibitor-bound conformers of p38 MAP kinase and comparison with experiments. Pac Symp Biocomput. 2011:181-192 (ANM conformers)",
    "Hendlich M, Rippmann F, Barnickel G. LIGSITE: automatic and efficient detection of potential small molecule-binding sites in proteins. J Mol Graph Model. 1997;15(6):359-363",
    "Buttenschoen M, Morris GM, Deane CM. PoseBusters: AI-based docking methods fail to generate physically valid poses or generalise to novel sequences. Chem Sci. 2024;15:3130-3139 (the test structures)",
  ],
  data: [],
  validation:
    "ConCavity's crystal cavities, ranked by size, against the crystal ligands of the 9 shared PoseBusters complexes (whole receptors): " +
    "the largest cavity holds the ligand (half its heavy atoms within 2 Å of a cavity point) in 2 of 9, one of the three largest in 3 of 9 " +
    "(docs/science.md, cryptic_pockets, regenerated by cryptic-pockets.validation.test.ts; several receptors are multimers whose other, " +
    "empty copies of the site compete). Transient cavities have no reference set here and are not validated.",
  limits:
    "A hint, never a finding: an elastic network displaces whole residues harmonically about one structure (1 Å Cα RMSD), so it cannot " +
    "show side-chain or loop rearrangements, and a cavity that opens in it is not evidence that a pocket opens. No conservation input " +
    `(the contract stages no alignments). Cost: seven ConCavity runs per structure; on 1of6 (2,770 Cα) 3–22 CPU-s a run, about 80 CPU-s ` +
    `in all at a load average near 15; 1s3v (186 Cα) 0.05 CPU-s a run. Receptors over ${CRYPTIC_MAX_CALPHAS} Cα (the largest measured) are ` +
    `not assessed; each run has a ${CONCAVITY_CPU_SECONDS} CPU-s budget.`,
};
