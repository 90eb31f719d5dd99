import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type DockedCompoundRecord, type DockingProfileRecord, RUN_FILES, runPath } from "@svc/core";
import type { MethodCard } from "../../analysis-module.ts";
import {
  defineStructureModule,
  type StructureCompound,
  type StructureContext,
} from "../../define-structure-module.ts";
import { loadRDKit } from "../../rdkit.ts";
import { ENSEMBLE_RULE } from "../anm-conformers.ts";
import { CONSENSUS_RULE, DEEP_RESCORERS } from "../consensus-score.ts";
import {
  type BatchDockingEngine,
  createVinaDockingEngine,
  DEEP_EXHAUSTIVENESS,
  type DockingReceptor,
  type DockingRequest,
  type DockingResult,
  STANDARD_EXHAUSTIVENESS,
} from "../docking-engine.ts";
import { type InteractionCounts, summarizeInteractions } from "../interactions/interaction-profile.ts";
import { profileInteractions } from "../interactions/profile-interactions.ts";
import { readLigandMolblock } from "../interactions/read-ligand.ts";
import { createLigandPreparer, type PreparedLigandOk } from "../ligand-preparer.ts";
import { parsePdb } from "../parse-pdb.ts";
import { type PocketBox, pocketBoxFromCenterSize, pocketBoxFromLigand } from "../pocket-box.ts";
import { buildReceptorEnsemble } from "../receptor-ensemble.ts";
import type { PreparedReceptor } from "../receptor-preparer.ts";
import type { StructureAtom } from "../structure-atom.ts";
import { prepareDockingReceptor } from "./best-docked-poses.ts";
import {
  DOCKING_CHUNK,
  DOCKING_THROUGHPUT,
  dockingJobThroughput,
  MOLECULAR_DOCKING_MAX_COMPOUNDS,
} from "./docking-cap.ts";

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

/** A 20-pod Job of 8-CPU pods at the measured rate (the method card's example). */
const TWENTY_PODS = dockingJobThroughput(20, 8);

const METHOD: MethodCard = {
  what:
    "Docking of each parsed compound's parent into each staged receptor with AutoDock Vina 1.2.3 (the `vina` CLI, " +
    `recorded seed, 9 poses; one vina --batch per chunk of ${DOCKING_CHUNK} compounds and core, the receptor's grid maps computed once per chunk, poses byte-identical to one vina per compound): best score (kcal/mol), ligand efficiency (−score / heavy atoms), the top pose as SDF under ${RUN_FILES.posesDir}, ` +
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
    `${MOLECULAR_DOCKING_MAX_COMPOUNDS.maximum}) compounds per structure and pod: a sharded run's pods each dock their ` +
    "own slice of the portfolio, so 20 pods dock 20 times as many (the rest not_assessed: cap). Throughput " +
    `(standard, ${DOCKING_THROUGHPUT.bench}): about ${DOCKING_THROUGHPUT.compoundsPerCoreHour} compounds per ` +
    `core-hour of ligands of 9–27 heavy atoms (the vina CLI alone: ${DOCKING_THROUGHPUT.vinaCliCompoundsPerCoreHour}, ` +
    "the same within the noise of that loaded machine), so a " +
    `20-pod Job of 8-CPU pods docks about ${Math.round(TWENTY_PODS.compoundsPerHour / 1000)},000 compounds an hour ` +
    `and each pod its default ${MOLECULAR_DOCKING_MAX_COMPOUNDS.default} in about ${Math.round(TWENTY_PODS.budgetMinutes)} ` +
    "minutes; deep costs about 28 times as much per compound. A docking " +
    "score is not a binding free energy and ranks poorly across chemotypes; standard docks into one rigid receptor " +
    "conformation, deep into harmonic (ANM) conformers that move each residue rigidly with its Cα, not side-chain " +
    "induced fit; AD4 needs the receptor's Gasteiger charges (when Open Babel cannot give them AD4 is left out with " +
    "the reason); metals are treated like any atom in the clash check. A compound whose preparation or Vina run " +
    "fails or exceeds its time budget costs only that compound (not_assessed with the reason).",
};

/** `molecular_docking` (issue 25 item 4) as a structure module. */
export const molecularDockingModule = defineStructureModule<StructureSetUp, DockedCompoundRecord>({
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
    // The staged reference ligand's residue removed; the physics modules prepare the same receptor.
    const receptor = await prepareDockingReceptor(context);
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
  perCompound: {
    pooled: true,
    chunk: DOCKING_CHUNK,
    assess: (context, setUp, compounds) => dockChunk(context, setUp, compounds),
  },
});

/**
 * What one structure's compounds share (issue 39 item 2): one engine (it reads the receptor's atoms
 * once for the clash check), the receptors' atoms for the interaction profile (read once each), and
 * the count of compounds given so far (for the cap). Made on the structure's first compound.
 */
interface PerReceptor {
  readonly engine: BatchDockingEngine;
  readonly atoms: Map<string, Promise<readonly StructureAtom[]>>;
  given: number;
  chunks: number;
}

const perReceptor = new WeakMap<object, PerReceptor>();

function sharedOf(context: StructureContext, setUp: object): PerReceptor {
  let shared = perReceptor.get(setUp);
  if (!shared) {
    shared = {
      engine: createVinaDockingEngine({
        workDir: join(context.workDir, "compounds"),
        mapsDir: join(context.workDir, "ad4-maps"),
      }),
      atoms: new Map(),
      given: 0,
      chunks: 0,
    };
    perReceptor.set(setUp, shared);
  }
  return shared;
}

/**
 * Docks a chunk of compounds (portfolio order) into one structure: the cap is counted when the chunk
 * is given (the structure stage gives chunks in portfolio order, so the first `cap` compounds are the
 * ones docked however the pool interleaves them); each ligand is prepared, the prepared ones docked
 * in one `dockBatch`, their work files removed once the pose is copied under results/.
 */
async function dockChunk(
  context: StructureContext,
  setUp: StructureSetUp,
  compounds: readonly StructureCompound[],
): Promise<DockedCompoundRecord[]> {
  const records: (DockedCompoundRecord | undefined)[] = [];
  if (setUp.status !== "prepared")
    return compounds.map((compound) => ({
      candidate_id: compound.row.candidateId,
      status: "not_assessed",
      reason: compound.ok ? setUp.reason : compound.error,
    }));
  const shared = sharedOf(context, setUp);
  // Parsed compounds count against the cap, as before the pool: an unparsed row is not docked anyway.
  const budget = compounds.map((compound) => {
    if (!compound.ok) return false;
    shared.given++;
    return shared.given <= setUp.cap;
  });
  const chunkDir = join(context.workDir, "ligands", `chunk-${shared.chunks++}`);
  const requests: { at: number; request: DockingRequest }[] = [];
  const [crystal, ...conformers] = setUp.ensemble?.paths ?? [];
  const receptor = crystal ?? {
    label: "crystal",
    pdbqtPath: setUp.receptor.pdbqtPath,
    pdbPath: setUp.receptor.pdbPath,
  };
  for (const [at, compound] of compounds.entries()) {
    const id = compound.row.candidateId;
    if (!compound.ok) records[at] = { candidate_id: id, status: "not_assessed", reason: compound.error };
    else if (!budget[at]) records[at] = { candidate_id: id, status: "not_assessed", reason: "cap" };
    else {
      // Into the chunk's own folder: two chunks preparing the same SMILES at once never share a file.
      const ligand = await createLigandPreparer({ workDir: chunkDir }).prepare({
        id,
        smiles: compound.chem.parent_smiles,
      });
      if (ligand.status !== "prepared")
        records[at] = { candidate_id: id, status: "not_assessed", reason: ligand.reason };
      else
        requests.push({
          at,
          request: {
            ligand: ligand as PreparedLigandOk,
            receptor,
            ensemble: conformers,
            box: setUp.box,
            profile: setUp.profile.name,
          },
        });
    }
  }
  try {
    // One engine per receptor; each chunk docks in its own folder, removed with it.
    const call = { workDir: join(chunkDir, "docking") };
    const results =
      requests.length === 1
        ? [await shared.engine.dock((requests[0] as { request: DockingRequest }).request, call)]
        : await shared.engine.dockBatch(
            requests.map((entry) => entry.request),
            call,
          );
    for (const [index, { at, request }] of requests.entries())
      records[at] = await recordOf(
        context,
        setUp,
        shared,
        request.ligand.id,
        results[index] as DockingResult,
      );
  } finally {
    await rm(chunkDir, { recursive: true, force: true });
  }
  return records as DockedCompoundRecord[];
}

async function recordOf(
  context: StructureContext,
  setUp: Extract<StructureSetUp, { status: "prepared" }>,
  shared: PerReceptor,
  id: string,
  result: DockingResult,
): Promise<DockedCompoundRecord> {
  if (result.status !== "docked") return { candidate_id: id, status: "not_assessed", reason: result.reason };
  const index = context.staged.index;
  const poseFile = runPath("pose", { index, candidate: safeName(id) });
  await mkdir(join(context.runDir, runPath("structurePosesDir", { index })), { recursive: true });
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
    interactions: await interactionsOf(
      shared,
      bestReceptorPdb(setUp, result.receptorLabel),
      result.topPoseSdf,
    ),
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
async function interactionsOf(
  shared: PerReceptor,
  receptorPdb: string,
  poseSdf: string,
): Promise<InteractionCounts | null> {
  try {
    const rdkit = await loadRDKit();
    let atoms = shared.atoms.get(receptorPdb);
    if (!atoms) {
      // Read once per receptor, not once per compound (issue 39 item 2).
      atoms = readFile(receptorPdb, "utf8").then((text) => parsePdb(text).atoms);
      shared.atoms.set(receptorPdb, atoms);
    }
    const profile = profileInteractions(await atoms, readLigandMolblock(rdkit, poseSdf));
    return summarizeInteractions(profile);
  } catch {
    return null;
  }
}

/** A candidate id as a file name: anything but letters, digits, `.`, `_`, `-` becomes `_`. */
function safeName(id: string): string {
  return id.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 100) || "compound";
}
