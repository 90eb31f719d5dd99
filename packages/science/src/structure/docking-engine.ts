import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Ad4Maps, prepareAd4Maps } from "./ad4-maps.ts";
import { CONSENSUS_RULE, consensusScore, DEEP_RESCORERS, type Rescorer } from "./consensus-score.ts";
import { ligandEfficiency } from "./ligand-efficiency.ts";
import type { PreparedLigandOk } from "./ligand-preparer.ts";
import { parseSdf, withoutHydrogens } from "./molfile.ts";
import { parsePdb } from "./parse-pdb.ts";
import type { PocketBox } from "./pocket-box.ts";
import { checkPose, type PoseCheckResult } from "./pose-checks.ts";
import { describeToolFailure, runTool, type ToolInvocation } from "./run-tool.ts";
import { StructureError } from "./structure-error.ts";
import { STRUCTURE_PYTHON } from "./tool-versions.ts";
import { parseScoreOnly, parseVinaPoses, type VinaPose } from "./vina-output.ts";

const POSE_ADAPTER = fileURLToPath(new URL("./python/pose_to_sdf.py", import.meta.url));

/** Standard profile: Vina's default search effort (Eberhardt et al., J. Chem. Inf. Model. 2021). */
export const STANDARD_EXHAUSTIVENESS = 8;
/** Deep profile (spec §2.1, issue 25 item 7): four times the search. */
export const DEEP_EXHAUSTIVENESS = 32;
/** Poses kept per compound (Vina's `--num_modes`). */
export const DOCKING_POSES = 9;
/** Vina's seed unless the caller records another. */
export const DOCKING_SEED = 42;
/**
 * Per-compound CPU-time budget, per receptor, before Vina is stopped: standard 10 CPU-minutes, deep 30.
 * CPU time, not wall-clock time, so a compound docked on an idle machine is docked on a busy one too
 * (a sealed rerun gives the same results; issue 43). A slower processor still uses more of it.
 */
export const DOCKING_CPU_BUDGET_S = { standard: 600, deep: 1_800 } as const;
/**
 * Wall-clock safety net, per receptor: four times the CPU budget, so it only ends a Vina that makes no
 * progress (or one sharing its core with three or more others), never a search the CPU budget allows
 * on a machine with fewer than four processes per core.
 */
export const DOCKING_TIMEOUT_MS = {
  standard: 4 * DOCKING_CPU_BUDGET_S.standard * 1000,
  deep: 4 * DOCKING_CPU_BUDGET_S.deep * 1000,
} as const;

export type DockingProfile = "standard" | "deep";

/** Time budget of one `--score_only` rescoring run. */
const RESCORING_TIMEOUT_MS = 120_000;

/** A receptor ready for Vina: the prepared PDBQT and the PDB whose heavy atoms the clash check reads. */
export interface DockingReceptor {
  readonly pdbqtPath: string;
  readonly pdbPath: string;
  /** How results name it: `crystal` (the default for the first receptor), `anm_mode_1_plus`, … */
  readonly label?: string;
}

export interface DockingRequest {
  readonly ligand: PreparedLigandOk;
  readonly receptor: DockingReceptor;
  readonly box: PocketBox;
  readonly profile?: DockingProfile;
  /**
   * Ensemble docking (issue 25 item 7): further receptor conformers (the deep profile passes the crystal
   * receptor's ANM conformers, `buildReceptorEnsemble`), each docked into with the same ligand, box and
   * seed; the best score over all receptors is the compound's. Empty: the one receptor only.
   */
  readonly ensemble?: readonly DockingReceptor[];
}

export interface DockingSettings {
  readonly seed: number;
  readonly exhaustiveness: number;
  readonly numModes: number;
  readonly cpu: number;
  /** CPU seconds per Vina run (`DOCKING_CPU_BUDGET_S`). */
  readonly cpuBudgetS: number;
  /** Wall-clock safety net per Vina run (`DOCKING_TIMEOUT_MS`). */
  readonly timeoutMs: number;
  readonly scoring: "vina";
}

/**
 * The best pose (best receptor) rescored with the other scoring functions built into Vina 1.2 and
 * their consensus (issue 25 item 7; deep profile only).
 */
export interface ConsensusRescoring {
  /** The receptor the best pose is in (its label). */
  readonly receptor: string;
  /** The docking score itself (Vina scoring), kcal/mol. */
  readonly vina: number;
  /** `vina --scoring vinardo --score_only` (Quiroga & Villarreal, PLoS One 2016), kcal/mol, or null with the reason. */
  readonly vinardo: number | null;
  readonly vinardoReason: string | null;
  /**
   * `vina --scoring ad4 --score_only --maps …` on AutoGrid 4 maps of the receptor over the box
   * (Morris et al., J. Comput. Chem. 2009), kcal/mol, or null with the reason.
   */
  readonly ad4: number | null;
  readonly ad4Reason: string | null;
  /** See `consensusScore` and `CONSENSUS_RULE`. */
  readonly consensus: number;
  readonly spread: number;
  readonly scorersUsed: readonly string[];
  readonly rule: string;
}

/** What a docking profile computed, for the result and the report (standard and deep differ here). */
export interface DockingProfileSummary {
  readonly name: DockingProfile;
  readonly exhaustiveness: number;
  /** Receptors docked into: 1 (the crystal receptor) or the ensemble's size. */
  readonly ensembleSize: number;
  /** Scoring functions the best pose is rescored with besides Vina; [] for standard. */
  readonly rescorers: readonly Rescorer[];
}

export interface ReceptorScore {
  readonly label: string;
  readonly receptorPdbqt: string;
  /** Best score into this receptor, or null with the reason it failed. */
  readonly score: number | null;
  readonly reason: string | null;
}

export interface DockedCompound {
  readonly status: "docked";
  readonly id: string;
  /** Best Vina score over all receptors, kcal/mol. */
  readonly score: number;
  /** −score / heavy atoms (Hopkins et al. 2004). */
  readonly ligandEfficiency: number | null;
  readonly heavyAtoms: number;
  /** Every pose of the best receptor, best first. */
  readonly poses: readonly Omit<VinaPose, "pdbqt">[];
  /** The top pose as an SDF record (the prepared ligand with the pose's coordinates, hydrogens added). */
  readonly topPoseSdf: string;
  /** All poses as SDF, best first, atom order of the prepared ligand. */
  readonly posesSdfPath: string;
  /** Vina's own output for the best receptor. */
  readonly vinaOutPath: string;
  readonly receptorPdbqt: string;
  /** Label of the receptor the best pose is in. */
  readonly receptorLabel: string;
  readonly receptorScores: readonly ReceptorScore[];
  readonly profile: DockingProfileSummary;
  readonly poseChecks: PoseCheckResult;
  /** Deep profile only. */
  readonly consensus: ConsensusRescoring | null;
  readonly settings: DockingSettings;
  readonly invocations: readonly ToolInvocation[];
  readonly durationMs: number;
}

export interface UnassessedDocking {
  readonly status: "unassessed";
  readonly id: string;
  readonly reason: string;
  readonly invocations: readonly ToolInvocation[];
}

export type DockingResult = DockedCompound | UnassessedDocking;

/** Role interface (ARCHITECTURE.md): docks one prepared ligand, never throwing for that compound. */
export interface DockingEngine {
  dock(request: DockingRequest, call?: DockingCall): Promise<DockingResult>;
}

/** Per call: `workDir` overrides the engine's, so concurrent calls docking the same ligand never share files. */
export interface DockingCall {
  readonly workDir?: string;
}

export interface VinaEngineOptions {
  /** Where each compound's Vina output and pose SDF go (one subfolder per compound). */
  readonly workDir: string;
  readonly seed?: number;
  /** Threads per Vina process (`--cpu`); 1 lets the runner's pool run one compound per core. */
  readonly cpu?: number;
  /**
   * Overrides the profile's exhaustiveness (tests and the bench's scaling run use a low one to keep
   * the plumbing cheap; the runner never sets it). Recorded in the settings and profile summary.
   */
  readonly exhaustiveness?: number;
  /** Overrides `DOCKING_CPU_BUDGET_S` of the profile. */
  readonly cpuBudgetS?: number;
  /** Overrides `DOCKING_TIMEOUT_MS` of the profile. */
  readonly timeoutMs?: number;
  /** The Vina program (default `vina` on PATH). */
  readonly vinaPath?: string;
  /** The AutoGrid 4 program for AD4 rescoring (default `autogrid4` on PATH). */
  readonly autogridPath?: string;
  /** Where AD4 maps are kept, one folder per receptor and box, shared by compounds (default `workDir`). */
  readonly mapsDir?: string;
}

/** The `vina` argument vector for one docking run (also what the redocking test's anchor types by hand). */
export function vinaDockingArgs(
  receptorPdbqt: string,
  ligandPdbqt: string,
  box: PocketBox,
  settings: Pick<DockingSettings, "seed" | "exhaustiveness" | "numModes" | "cpu">,
  outPath: string,
): string[] {
  return [
    "--receptor",
    receptorPdbqt,
    "--ligand",
    ligandPdbqt,
    ...searchArgs(box, settings),
    "--out",
    outPath,
  ];
}

/** The box and search settings, the same for one ligand and for a batch (same seed, same poses). */
function searchArgs(
  box: PocketBox,
  settings: Pick<DockingSettings, "seed" | "exhaustiveness" | "numModes" | "cpu">,
): string[] {
  return [
    ...boxArgs(box),
    "--seed",
    String(settings.seed),
    "--exhaustiveness",
    String(settings.exhaustiveness),
    "--num_modes",
    String(settings.numModes),
    "--cpu",
    String(settings.cpu),
  ];
}

function boxArgs(box: PocketBox): string[] {
  const [cx, cy, cz] = box.center;
  const [sx, sy, sz] = box.size;
  return [
    "--center_x",
    String(cx),
    "--center_y",
    String(cy),
    "--center_z",
    String(cz),
    "--size_x",
    String(sx),
    "--size_y",
    String(sy),
    "--size_z",
    String(sz),
  ];
}

/**
 * A docking engine that also docks several ligands into the same receptors and box at once
 * (`dockBatch`): one `vina --batch` process per receptor computes the receptor's grid maps once for
 * them all (issue 39 item 3). Each result equals `dock`'s for the same request: Vina seeds every
 * ligand of a batch with the same seed and computes the same maps, so the poses are byte-identical
 * to the per-compound CLI's (tested).
 */
export interface BatchDockingEngine extends DockingEngine {
  /**
   * Docks each request as `dock` would; all requests must share receptor, ensemble, box and profile.
   * The results are in request order.
   */
  dockBatch(requests: readonly DockingRequest[], call?: DockingCall): Promise<DockingResult[]>;
}

/** One receptor's Vina run for one ligand: its poses and output file, or why there are none. */
interface ReceptorRun {
  readonly poses: VinaPose[];
  readonly outPath: string;
  readonly reason: string | null;
}

/**
 * The AutoDock Vina 1.2.3 engine (Trott & Olson, J. Comput. Chem. 2010; Eberhardt et al. 2021): the
 * `vina` CLI per compound and receptor (or `vina --batch` over several compounds, see
 * {@link BatchDockingEngine}), stopped past its CPU-time budget (or its wall-clock net); a crash, a
 * time-out, no pose or a pose that cannot be mapped back onto the ligand makes that compound
 * `unassessed` with the reason. Make one engine per receptor and reuse it: it reads each receptor's
 * heavy atoms (for the clash check) once.
 */
export function createVinaDockingEngine(options: VinaEngineOptions): BatchDockingEngine {
  const vina = options.vinaPath ?? "vina";
  const receptorAtoms = new Map<
    string,
    Promise<{ element: string; position: readonly [number, number, number] }[]>
  >();
  const heavyReceptorAtoms = (pdbPath: string) => {
    let atoms = receptorAtoms.get(pdbPath);
    if (!atoms) {
      atoms = readFile(pdbPath, "utf8").then((text) =>
        parsePdb(text).atoms.filter((atom) => atom.element !== "H"),
      );
      receptorAtoms.set(pdbPath, atoms);
    }
    return atoms;
  };
  const settingsOf = (profile: DockingProfile): DockingSettings => ({
    seed: options.seed ?? DOCKING_SEED,
    exhaustiveness:
      options.exhaustiveness ?? (profile === "deep" ? DEEP_EXHAUSTIVENESS : STANDARD_EXHAUSTIVENESS),
    numModes: DOCKING_POSES,
    cpu: options.cpu ?? 1,
    cpuBudgetS: options.cpuBudgetS ?? DOCKING_CPU_BUDGET_S[profile],
    timeoutMs: options.timeoutMs ?? DOCKING_TIMEOUT_MS[profile],
    scoring: "vina",
  });
  const compoundDir = async (workDir: string, ligand: PreparedLigandOk) => {
    const dir = join(workDir, ligandStem(ligand));
    await mkdir(dir, { recursive: true });
    return dir;
  };
  /** One `vina` run of one ligand into one receptor, output in the compound's folder. */
  const runOne = async (
    workDir: string,
    request: DockingRequest,
    receptor: DockingReceptor,
    index: number,
    settings: DockingSettings,
    invocations: ToolInvocation[],
  ): Promise<ReceptorRun> => {
    const outPath = join(await compoundDir(workDir, request.ligand), `vina-out-${index}.pdbqt`);
    const args = vinaDockingArgs(
      receptor.pdbqtPath,
      request.ligand.pdbqtPath,
      request.box,
      settings,
      outPath,
    );
    invocations.push({ tool: "vina", argv: [vina, ...args] });
    const run = await runTool(vina, args, { timeoutMs: settings.timeoutMs, cpuSeconds: settings.cpuBudgetS });
    const failure = describeToolFailure("vina", run, settings.timeoutMs, settings.cpuBudgetS);
    const poses = failure ? [] : parseVinaPoses(await readFile(outPath, "utf8").catch(() => ""));
    return { poses, outPath, reason: failure ?? (poses.length === 0 ? "vina wrote no pose" : null) };
  };
  /**
   * One `vina --batch` of several ligands into one receptor: Vina writes `<dir>/<stem>_out.pdbqt` per
   * ligand in the order given, each moved into its compound's folder as `dock` names it. The batch's
   * budget is the sum of its compounds' budgets; when it fails (crash, budget), the outputs before the
   * last one written are kept (the last may be cut short) and every other ligand is docked alone
   * with its own budget, so a compound's result never depends on the batch it was in.
   */
  const runBatch = async (
    workDir: string,
    requests: readonly DockingRequest[],
    receptor: DockingReceptor,
    index: number,
    settings: DockingSettings,
    invocations: ToolInvocation[][],
  ): Promise<ReceptorRun[]> => {
    const ligands = [...new Set(requests.map((request) => request.ligand.pdbqtPath))];
    const batchDir = join(workDir, `batch-${ligandStem(requests[0]?.ligand as PreparedLigandOk)}-${index}`);
    await rm(batchDir, { recursive: true, force: true });
    await mkdir(batchDir, { recursive: true });
    const timeoutMs = settings.timeoutMs * ligands.length;
    const cpuSeconds = settings.cpuBudgetS * ligands.length;
    const args = vinaBatchArgs(
      receptor.pdbqtPath,
      ligands,
      requests[0]?.box as PocketBox,
      settings,
      batchDir,
    );
    const run = await runTool(vina, args, { timeoutMs, cpuSeconds });
    const failed = describeToolFailure("vina", run, timeoutMs, cpuSeconds) !== null;
    const written = await Promise.all(
      ligands.map((path) =>
        readFile(join(batchDir, `${basename(path, ".pdbqt")}_out.pdbqt`), "utf8").catch(() => null),
      ),
    );
    const firstMissing = written.indexOf(null);
    const trusted = failed
      ? Math.max(0, (firstMissing === -1 ? ligands.length : firstMissing) - 1)
      : ligands.length;
    const runs: ReceptorRun[] = [];
    for (const [position, request] of requests.entries()) {
      const at = ligands.indexOf(request.ligand.pdbqtPath);
      const text = written[at];
      if (at >= trusted || text === null || text === undefined) {
        runs.push(
          await runOne(
            workDir,
            request,
            receptor,
            index,
            settings,
            invocations[position] as ToolInvocation[],
          ),
        );
        continue;
      }
      (invocations[position] as ToolInvocation[]).push({ tool: "vina", argv: [vina, ...args] });
      const outPath = join(await compoundDir(workDir, request.ligand), `vina-out-${index}.pdbqt`);
      await writeFile(outPath, text);
      const poses = parseVinaPoses(text);
      runs.push({ poses, outPath, reason: poses.length === 0 ? "vina wrote no pose" : null });
    }
    await rm(batchDir, { recursive: true, force: true });
    return runs;
  };
  /** From every receptor's run of one compound to its result: best receptor, SDF poses, checks, consensus. */
  const finish = async (
    workDir: string,
    request: DockingRequest,
    runs: readonly ReceptorRun[],
    settings: DockingSettings,
    invocations: ToolInvocation[],
    started: number,
  ): Promise<DockingResult> => {
    const profile = request.profile ?? "standard";
    const { ligand } = request;
    const dir = await compoundDir(workDir, ligand);
    const unassessed = (reason: string): UnassessedDocking => ({
      status: "unassessed",
      id: ligand.id,
      reason,
      invocations,
    });
    const receptors = [request.receptor, ...(request.ensemble ?? [])];
    const receptorScores: ReceptorScore[] = [];
    let best: { receptor: DockingReceptor; label: string; poses: VinaPose[]; outPath: string } | undefined;
    for (const [index, receptor] of receptors.entries()) {
      const { poses, outPath, reason } = runs[index] as ReceptorRun;
      const label = receptor.label ?? (index === 0 ? "crystal" : `receptor_${index}`);
      receptorScores.push({
        label,
        receptorPdbqt: receptor.pdbqtPath,
        score: poses[0]?.score ?? null,
        reason,
      });
      if (reason !== null) continue;
      if (!best || (poses[0]?.score as number) < (best.poses[0]?.score as number))
        best = { receptor, label, poses, outPath };
    }
    if (!best) return unassessed(receptorScores.map((r) => r.reason).join("; "));
    const posesSdfPath = join(dir, "poses.sdf");
    const poseArgs = [POSE_ADAPTER, best.outPath, ligand.sdfPath, posesSdfPath];
    invocations.push({ tool: "pose_to_sdf.py", argv: [STRUCTURE_PYTHON, ...poseArgs] });
    const conversion = await runTool(STRUCTURE_PYTHON, poseArgs, { timeoutMs: 120_000 });
    const conversionFailure = describeToolFailure("pose conversion", conversion, 120_000);
    if (conversionFailure) return unassessed(conversionFailure);
    const converted = JSON.parse(conversion.stdout.trim() || "{}") as { poses?: number; error?: string };
    if (converted.error) return unassessed(converted.error);
    const sdfText = await readFile(posesSdfPath, "utf8");
    const topPoseSdf = `${sdfText.split(/^\$\$\$\$\s*$/m)[0]?.replace(/^\n/, "") ?? ""}$$$$\n`;
    const [topPose] = parseSdf(topPoseSdf);
    const [prepared] = parseSdf(await readFile(ligand.sdfPath, "utf8"));
    if (!topPose || !prepared)
      return unassessed("the top pose or the prepared ligand could not be read back");
    const poseChecks = checkPose({
      pose: withoutHydrogens(topPose),
      reference: withoutHydrogens(prepared),
      receptor: await heavyReceptorAtoms(best.receptor.pdbPath),
      box: request.box,
    });
    const score = best.poses[0]?.score as number;
    let consensus: ConsensusRescoring | null = null;
    if (profile === "deep") {
      const topPath = join(dir, "top-pose.pdbqt");
      await writeFile(topPath, best.poses[0]?.pdbqt ?? "");
      const scoreOnly = async (args: string[]): Promise<{ score: number | null; reason: string | null }> => {
        invocations.push({ tool: "vina", argv: [vina, ...args] });
        const run = await runTool(vina, args, { timeoutMs: RESCORING_TIMEOUT_MS });
        const failure = describeToolFailure("vina", run, RESCORING_TIMEOUT_MS);
        const value = failure ? null : parseScoreOnly(run.stdout);
        return { score: value, reason: failure ?? (value === null ? "vina printed no score" : null) };
      };
      const vinardo = await scoreOnly([
        "--receptor",
        best.receptor.pdbqtPath,
        "--ligand",
        topPath,
        ...boxArgs(request.box),
        "--scoring",
        "vinardo",
        "--score_only",
      ]);
      const maps: Ad4Maps = await prepareAd4Maps(
        best.receptor.pdbqtPath,
        request.box,
        options.mapsDir ?? options.workDir,
        options.autogridPath,
      );
      if (maps.invocation) invocations.push(maps.invocation);
      const ad4 =
        maps.status === "ready"
          ? await scoreOnly(["--ligand", topPath, "--maps", maps.prefix, "--scoring", "ad4", "--score_only"])
          : { score: null, reason: maps.reason };
      const agreed = consensusScore({ vina: score, vinardo: vinardo.score, ad4: ad4.score });
      consensus = {
        receptor: best.label,
        vina: score,
        vinardo: vinardo.score,
        vinardoReason: vinardo.reason,
        ad4: ad4.score,
        ad4Reason: ad4.reason,
        ...agreed,
        rule: CONSENSUS_RULE,
      };
    }
    return {
      status: "docked",
      id: ligand.id,
      score,
      ligandEfficiency: ligandEfficiency(score, ligand.heavyAtoms),
      heavyAtoms: ligand.heavyAtoms,
      poses: best.poses.map(({ pdbqt: _pdbqt, ...pose }) => pose),
      topPoseSdf,
      posesSdfPath,
      vinaOutPath: best.outPath,
      receptorPdbqt: best.receptor.pdbqtPath,
      receptorLabel: best.label,
      receptorScores,
      profile: {
        name: profile,
        exhaustiveness: settings.exhaustiveness,
        ensembleSize: receptors.length,
        rescorers: profile === "deep" ? DEEP_RESCORERS : [],
      },
      poseChecks,
      consensus,
      settings,
      invocations,
      durationMs: Math.round(performance.now() - started),
    };
  };
  return {
    async dock(request, call) {
      const workDir = call?.workDir ?? options.workDir;
      const started = performance.now();
      const settings = settingsOf(request.profile ?? "standard");
      const invocations: ToolInvocation[] = [];
      const runs: ReceptorRun[] = [];
      for (const [index, receptor] of [request.receptor, ...(request.ensemble ?? [])].entries())
        runs.push(await runOne(workDir, request, receptor, index, settings, invocations));
      return finish(workDir, request, runs, settings, invocations, started);
    },
    async dockBatch(requests, call) {
      const workDir = call?.workDir ?? options.workDir;
      const [first] = requests;
      if (first === undefined) return [];
      const receptors = [first.receptor, ...(first.ensemble ?? [])];
      const sameTarget = (request: DockingRequest) =>
        (request.profile ?? "standard") === (first.profile ?? "standard") &&
        JSON.stringify([request.box, request.receptor, request.ensemble ?? []]) ===
          JSON.stringify([first.box, first.receptor, first.ensemble ?? []]);
      if (!requests.every(sameTarget))
        throw new StructureError(
          "STRUCTURE_DOCKING_BATCH_MIXED",
          "dockBatch docks into one receptor set, box and profile: group the requests by them",
        );
      const started = performance.now();
      const settings = settingsOf(first.profile ?? "standard");
      const invocations = requests.map((): ToolInvocation[] => []);
      const runs = requests.map((): ReceptorRun[] => []);
      for (const [index, receptor] of receptors.entries()) {
        const batch = await runBatch(workDir, requests, receptor, index, settings, invocations);
        for (const [position, run] of batch.entries()) runs[position]?.push(run);
      }
      const results: DockingResult[] = [];
      for (const [position, request] of requests.entries())
        results.push(
          await finish(
            workDir,
            request,
            runs[position] as ReceptorRun[],
            settings,
            invocations[position] as ToolInvocation[],
            started,
          ),
        );
      return results;
    },
  };
}

/** A prepared ligand's file stem (`ligand-<hash>`), its compound folder's name. */
function ligandStem(ligand: PreparedLigandOk): string {
  return basename(ligand.pdbqtPath, ".pdbqt");
}

/** The `vina --batch` argument vector: {@link vinaDockingArgs} with several ligands and an output folder. */
export function vinaBatchArgs(
  receptorPdbqt: string,
  ligandPdbqts: readonly string[],
  box: PocketBox,
  settings: Pick<DockingSettings, "seed" | "exhaustiveness" | "numModes" | "cpu">,
  outDir: string,
): string[] {
  return [
    "--receptor",
    receptorPdbqt,
    "--batch",
    ...ligandPdbqts,
    ...searchArgs(box, settings),
    "--dir",
    outDir,
  ];
}

/** Docks one prepared ligand with a fresh Vina engine (see `createVinaDockingEngine`). */
export function dockCompound(request: DockingRequest, options: VinaEngineOptions): Promise<DockingResult> {
  return createVinaDockingEngine(options).dock(request);
}

/** Removes a compound's docking folder once its outputs were copied out (keeps a long run's disk flat). */
export async function removeDockingFolder(result: DockedCompound): Promise<void> {
  await rm(result.posesSdfPath.replace(/\/poses\.sdf$/, ""), { recursive: true, force: true });
}
