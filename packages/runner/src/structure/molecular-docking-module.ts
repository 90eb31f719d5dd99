import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
  buildReceptorEnsemble,
  CONSENSUS_RULE,
  createLigandPreparer,
  createReceptorPreparer,
  createVinaDockingEngine,
  DEEP_EXHAUSTIVENESS,
  DEEP_RESCORERS,
  type DockingReceptor,
  type DockingResult,
  ENSEMBLE_RULE,
  loadRDKit,
  type MethodCard,
  type PocketBox,
  type PreparedReceptor,
  pocketBoxFromCenterSize,
  pocketBoxFromLigand,
  profileInteractions,
  readLigandMolblock,
  readPdbAtoms,
  STANDARD_EXHAUSTIVENESS,
  summarizeInteractions,
} from "@svc/science";
import type { PortableCompound } from "../pool/portable-compound.ts";
import { MOLECULAR_DOCKING_MAX_COMPOUNDS } from "./docking-cap.ts";
import type { StructureContext, StructureModule } from "./structure-module.ts";

/**
 * What a profile computes (spec §2.1: deep is the heavier profile; issue 25 item 7), as results and
 * the report show it: search effort, receptors docked into, scoring functions the best pose is rescored with.
 */
export interface DockingProfileRecord {
  readonly name: "standard" | "deep";
  readonly exhaustiveness: number;
  readonly ensemble_size: number;
  readonly rescorers: readonly string[];
}

/** Exhaustiveness per profile (spec §2.1: deep is the heavier profile). */
const PROFILE_OF_MODE: Readonly<Record<string, "standard" | "deep">> = { standard: "standard", deep: "deep" };

type StructureSetUp =
  | { readonly status: "not_assessed"; readonly reason: string }
  | {
      readonly status: "prepared";
      readonly box: PocketBox;
      readonly receptor: Omit<PreparedReceptor, "pdbPath" | "pdbqtPath"> & {
        readonly pdbPath: string;
        readonly pdbqtPath: string;
      };
      readonly cap: number;
      readonly profile: DockingProfileRecord;
      /** Deep only: the receptor ensemble (crystal + ANM conformers) and its rule; null for standard. */
      readonly ensemble: {
        readonly receptors: readonly string[];
        readonly rule: string;
        readonly eigenvalues: readonly number[];
        readonly reason: string | null;
        readonly paths: readonly DockingReceptor[];
      } | null;
    };

export interface DockedCompoundRecord {
  readonly candidate_id: string;
  readonly status: "docked" | "not_assessed";
  readonly reason: string | null;
  readonly score_kcal_mol?: number;
  readonly ligand_efficiency?: number | null;
  readonly heavy_atoms?: number;
  readonly pose_file?: string;
  readonly pose_checks?: { readonly passed: boolean; readonly failed: readonly string[] };
  readonly interactions?: Readonly<Record<string, number>> | null;
  readonly vinardo_kcal_mol?: number | null;
  readonly profile?: DockingProfileRecord;
  /** Each receptor's best Vina score (crystal first; deep adds the ANM conformers). */
  readonly receptor_scores?: readonly {
    readonly receptor: string;
    readonly score_kcal_mol: number | null;
    readonly reason: string | null;
  }[];
  /** The receptor the best pose (and `score_kcal_mol`) is in. */
  readonly best_receptor?: string;
  /** Deep only: the best pose rescored and the consensus; null for standard. */
  readonly consensus?: {
    readonly receptor: string;
    readonly vina_kcal_mol: number;
    readonly vinardo_kcal_mol: number | null;
    readonly vinardo_reason: string | null;
    readonly ad4_kcal_mol: number | null;
    readonly ad4_reason: string | null;
    readonly consensus_kcal_mol: number;
    readonly spread_kcal_mol: number;
    readonly scorers_used: readonly string[];
    readonly rule: string;
  } | null;
  readonly settings?: unknown;
}

const METHOD: MethodCard = {
  what:
    "Docking of each parsed compound's parent into each staged receptor with AutoDock Vina 1.2.3 (the `vina` CLI, " +
    `recorded seed, 9 poses): best score (kcal/mol), ligand efficiency (−score / heavy atoms), the top pose as SDF under results/poses/, ` +
    "PoseBusters-style pose checks and the top pose's interaction profile with PLIP's criteria. Receptors are " +
    "prepared once per structure (PDBFixer 1.8 at pH 7.4, Open Babel PDBQT); ligands are protonated by Open " +
    "Babel at pH 7.4 and embedded with native RDKit ETKDGv3 + MMFF94, seeded. The box comes from the staged " +
    "reference ligand (its bounding box + 4 Å a side, at least 15 Å) or the staged box. Standard: exhaustiveness " +
    `${STANDARD_EXHAUSTIVENESS}, the crystal receptor only, Vina scoring only. Deep: exhaustiveness ${DEEP_EXHAUSTIVENESS}, ` +
    `ensemble docking into ${ENSEMBLE_RULE}; the compound's score is its best over the ensemble; the best pose is ` +
    "rescored with Vinardo and AD4 (Vina 1.2's --scoring vinardo, and --scoring ad4 on AutoGrid 4 maps of that " +
    `receptor over the box) and the consensus is the ${CONSENSUS_RULE}. Each result says which profile it is (profile).`,
  citations: [
    "Eberhardt, Santos-Martins, Tillack & Forli, J. Chem. Inf. Model. 2021, 61, 3891 (AutoDock Vina 1.2)",
    "Trott & Olson, J. Comput. Chem. 2010, 31, 455 (Vina)",
    "Quiroga & Villarreal, PLoS One 2016, 11, e0155183 (Vinardo)",
    "Morris et al., J. Comput. Chem. 2009, 30, 2785 (AutoDock 4 and AutoGrid 4)",
    "Bakan & Bahar, Pac. Symp. Biocomput. 2011, 181–192 (ANM conformers of a receptor for docking: inhibitor-bound conformers of p38 MAP kinase); Bakan, Meireles & Bahar, Bioinformatics 2011 (ProDy traverseMode / extendModel)",
    "Charifson et al., J. Med. Chem. 1999, 42, 5100 (consensus scoring)",
    "Buttenschoen, Morris & Deane, Chem. Sci. 2024, 15, 3130 (PoseBusters checks)",
    "Salentin et al., Nucleic Acids Res. 2015, 43, W443 (PLIP interaction criteria)",
    "Hopkins, Groom & Alex, Drug Discov. Today 2004, 9, 430 (ligand efficiency)",
    "Eastman et al., PLoS Comput. Biol. 2017 (OpenMM / PDBFixer); O'Boyle et al., J. Cheminform. 2011 (Open Babel)",
  ],
  data: [],
  validation:
    "Redocking of the shared PoseBusters complexes from SMILES (docs/science.md, regenerated by " +
    "structure/redocking.validation.test.ts): our scores equal the vina command run by hand on the same receptor, box and " +
    "seed (difference 0.000 kcal/mol on 6 of 6), top-1 RMSD ≤ 2 Å on 3 of 6 (the same as the vina command), " +
    "best of 9 on 5 of 6; interaction profiles 302 of 303 identical to Debian's plip.",
  limits:
    `At most the runner setting dockingMaxCompounds (default ${MOLECULAR_DOCKING_MAX_COMPOUNDS.default}, maximum ` +
    `${MOLECULAR_DOCKING_MAX_COMPOUNDS.maximum}) compounds per structure (the rest not_assessed: cap). A docking ` +
    "score is not a binding free energy and ranks poorly across chemotypes; standard docks into one rigid receptor " +
    "conformation, deep into harmonic (ANM) conformers that move each residue rigidly with its Cα, not side-chain " +
    "induced fit; AD4 needs the receptor's Gasteiger charges (when Open Babel cannot give them AD4 is left out with " +
    "the reason); metals are treated like any atom in the clash check. A compound whose preparation or Vina run " +
    "fails or exceeds its time budget costs only that compound (not_assessed with the reason).",
};

/** `molecular_docking` (issue 25 item 4) as a structure module. */
export const molecularDockingModule: StructureModule<StructureSetUp, DockedCompoundRecord> = {
  id: "molecular_docking",
  // 1.1: deep docks into the ANM ensemble with Vinardo + AD4 consensus; every result names its profile.
  version: "1.1.0",
  method: METHOD,
  riskChannel: "biology",
  requiredInputs: ["structures"],
  callsTools: true,
  async assessStructure(context) {
    const pocket = context.staged.pocket;
    if (pocket === null)
      return {
        status: "not_assessed",
        reason:
          "no pocket: name a reference ligand or a box for this structure in sources.json (pdbs[].ligand or .box)",
      };
    const box =
      pocket.kind === "ligand"
        ? pocketBoxFromLigand(pocket.atoms)
        : pocketBoxFromCenterSize(pocket.box.center, pocket.box.size);
    const ligandResidue = context.staged.entry.ligand;
    const residueName =
      typeof ligandResidue === "string" && /^[A-Za-z0-9]{1,3}:/.test(ligandResidue)
        ? [ligandResidue.split(":")[0]?.toUpperCase() ?? ""]
        : [];
    const receptor = await createReceptorPreparer({ cacheDir: join(context.workDir, "receptor") }).prepare(
      context.staged.path,
      { removeHeterogens: residueName },
    );
    const deep = PROFILE_OF_MODE[context.mode] === "deep";
    const crystal: DockingReceptor = {
      label: "crystal",
      pdbPath: receptor.pdbPath,
      pdbqtPath: receptor.pdbqtPath,
    };
    const ensemble = deep ? await buildReceptorEnsemble(crystal, join(context.workDir, "ensemble")) : null;
    return {
      status: "prepared",
      box,
      receptor,
      cap: context.dockingMaxCompounds,
      profile: {
        name: deep ? "deep" : "standard",
        exhaustiveness: deep ? DEEP_EXHAUSTIVENESS : STANDARD_EXHAUSTIVENESS,
        ensemble_size: ensemble?.receptors.length ?? 1,
        rescorers: deep ? [...DEEP_RESCORERS] : [],
      },
      ensemble:
        ensemble === null
          ? null
          : {
              receptors: ensemble.receptors.map((entry) => entry.label ?? ""),
              rule: ensemble.rule,
              eigenvalues: ensemble.eigenvalues,
              reason: ensemble.reason,
              paths: ensemble.receptors,
            },
    };
  },
  assessCompound: (() => {
    const docked = new WeakMap<object, number>();
    return async (context: StructureContext, setUp: StructureSetUp, compound: PortableCompound) => {
      const id = compound.row.candidateId;
      if (!compound.ok) return { candidate_id: id, status: "not_assessed", reason: compound.error };
      if (setUp.status !== "prepared")
        return { candidate_id: id, status: "not_assessed", reason: setUp.reason };
      const count = (docked.get(setUp) ?? 0) + 1;
      docked.set(setUp, count);
      if (count > setUp.cap) return { candidate_id: id, status: "not_assessed", reason: "cap" };
      const work = join(context.workDir, "compounds");
      const ligand = await createLigandPreparer({ workDir: work }).prepare({
        id,
        smiles: compound.chem.parent_smiles,
      });
      if (ligand.status !== "prepared")
        return { candidate_id: id, status: "not_assessed", reason: ligand.reason };
      const [crystal, ...conformers] = setUp.ensemble?.paths ?? [];
      const result = await createVinaDockingEngine({
        workDir: work,
        mapsDir: join(context.workDir, "ad4-maps"),
      }).dock({
        ligand,
        receptor: crystal ?? {
          label: "crystal",
          pdbqtPath: setUp.receptor.pdbqtPath,
          pdbPath: setUp.receptor.pdbPath,
        },
        ensemble: conformers,
        box: setUp.box,
        profile: setUp.profile.name,
      });
      return recordOf(context, setUp, id, result);
    };
  })(),
};

async function recordOf(
  context: StructureContext,
  setUp: Extract<StructureSetUp, { status: "prepared" }>,
  id: string,
  result: DockingResult,
): Promise<DockedCompoundRecord> {
  if (result.status !== "docked") return { candidate_id: id, status: "not_assessed", reason: result.reason };
  const poseFile = join("results", "poses", `structure-${context.staged.index}`, `${safeName(id)}.sdf`);
  await mkdir(join(context.runDir, "results", "poses", `structure-${context.staged.index}`), {
    recursive: true,
  });
  await writeFile(join(context.runDir, poseFile), result.topPoseSdf);
  return {
    candidate_id: id,
    status: "docked",
    reason: null,
    score_kcal_mol: result.score,
    ligand_efficiency: result.ligandEfficiency,
    heavy_atoms: result.heavyAtoms,
    pose_file: poseFile,
    pose_checks: {
      passed: result.poseChecks.passed,
      failed: result.poseChecks.checks.filter((check) => !check.passed).map((check) => check.name),
    },
    interactions: await interactionsOf(bestReceptorPdb(setUp, result.receptorLabel), result.topPoseSdf),
    vinardo_kcal_mol: result.consensus?.vinardo ?? null,
    profile: {
      name: result.profile.name,
      exhaustiveness: result.profile.exhaustiveness,
      ensemble_size: result.profile.ensembleSize,
      rescorers: [...result.profile.rescorers],
    },
    receptor_scores: result.receptorScores.map((entry) => ({
      receptor: entry.label,
      score_kcal_mol: entry.score,
      reason: entry.reason,
    })),
    best_receptor: result.receptorLabel,
    consensus:
      result.consensus === null
        ? null
        : {
            receptor: result.consensus.receptor,
            vina_kcal_mol: result.consensus.vina,
            vinardo_kcal_mol: result.consensus.vinardo,
            vinardo_reason: result.consensus.vinardoReason,
            ad4_kcal_mol: result.consensus.ad4,
            ad4_reason: result.consensus.ad4Reason,
            consensus_kcal_mol: result.consensus.consensus,
            spread_kcal_mol: result.consensus.spread,
            scorers_used: [...result.consensus.scorersUsed],
            rule: result.consensus.rule,
          },
    settings: result.settings,
  };
}

/** The PDB of the receptor the best pose is in (the crystal receptor unless a deep conformer won). */
function bestReceptorPdb(setUp: Extract<StructureSetUp, { status: "prepared" }>, label: string): string {
  return setUp.ensemble?.paths.find((entry) => entry.label === label)?.pdbPath ?? setUp.receptor.pdbPath;
}

/** The top pose's interaction counts (PLIP's criteria); null when the pose cannot be read. */
async function interactionsOf(receptorPdb: string, poseSdf: string): Promise<Record<string, number> | null> {
  try {
    const rdkit = await loadRDKit();
    const profile = profileInteractions(
      readPdbAtoms(await readFile(receptorPdb, "utf8")),
      readLigandMolblock(rdkit, poseSdf),
    );
    return { ...summarizeInteractions(profile) } as unknown as Record<string, number>;
  } catch {
    return null;
  }
}

/** A candidate id as a file name: anything but letters, digits, `.`, `_`, `-` becomes `_`. */
function safeName(id: string): string {
  return id.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 100) || "compound";
}
