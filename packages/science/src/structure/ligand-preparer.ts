import { createHash } from "node:crypto";
import { mkdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { describeToolFailure, runTool, type ToolInvocation } from "./run-tool.ts";
import { STRUCTURE_PYTHON } from "./tool-versions.ts";

const ADAPTER = fileURLToPath(new URL("./python/prepare_ligand.py", import.meta.url));

/** The seed of RDKit's ETKDGv3 embedding unless the caller records another. */
export const LIGAND_EMBEDDING_SEED = 42;
/** Per-ligand budget for protonation, embedding, MMFF94 and PDBQT together. */
export const LIGAND_PREPARATION_TIMEOUT_MS = 120_000;

/** The protonation rule, as text for the method card and the raw output (issue 25 item 3). */
export const LIGAND_PROTONATION_RULE =
  "Open Babel 3.1.1 pH model at pH 7.4 (obabel -p 7.4: the pKa-keyed SMARTS transforms of its phmodel.txt; " +
  "carboxylic acids deprotonated, aliphatic amines, amidines and guanidines protonated), then native RDKit " +
  "ETKDGv3 embedding with a fixed seed and MMFF94 minimisation, then Open Babel PDBQT with Gasteiger charges";

export interface LigandInput {
  /** The compound's id (any text: files are named from its hash). */
  readonly id: string;
  /** The science package's parent SMILES. */
  readonly smiles: string;
}

export interface PreparedLigandOk {
  readonly status: "prepared";
  readonly id: string;
  readonly smiles: string;
  /** The SMILES after Open Babel's pH 7.4 model. */
  readonly protonatedSmiles: string;
  /** The embedded, MMFF94-minimised ligand with all hydrogens (heavy atoms first, in SMILES order). */
  readonly sdfPath: string;
  readonly pdbqtPath: string;
  readonly heavyAtoms: number;
  readonly formalCharge: number;
  /** Rotatable bonds in the PDBQT torsion tree. */
  readonly torsions: number;
  readonly invocation: ToolInvocation;
}

/** A ligand that could not be prepared: never an exception, always a reason. */
export interface PreparedLigandUnassessed {
  readonly status: "unassessed";
  readonly id: string;
  readonly smiles: string;
  readonly reason: string;
}

export type PreparedLigand = PreparedLigandOk | PreparedLigandUnassessed;

/** Role interface: SMILES in, docking-ready 3D ligand out (or the reason it is not). */
export interface LigandPreparer {
  prepare(ligand: LigandInput): Promise<PreparedLigand>;
}

export interface LigandPreparerOptions {
  /** Where the SDF and PDBQT files go. */
  readonly workDir: string;
  readonly seed?: number;
  readonly timeoutMs?: number;
}

/**
 * The Open Babel + native RDKit ligand preparer (`LIGAND_PROTONATION_RULE`). One Python process per
 * ligand, so one molecule that hangs the embedder or crashes it costs that molecule only.
 */
export function createLigandPreparer(options: LigandPreparerOptions): LigandPreparer {
  const seed = options.seed ?? LIGAND_EMBEDDING_SEED;
  const timeoutMs = options.timeoutMs ?? LIGAND_PREPARATION_TIMEOUT_MS;
  let made: Promise<unknown> | undefined;
  return {
    async prepare(ligand) {
      made ??= mkdir(options.workDir, { recursive: true });
      await made;
      const file = `ligand-${createHash("sha256").update(`${ligand.id}\n${ligand.smiles}`).digest("hex").slice(0, 16)}`;
      const argv = [ADAPTER, options.workDir, String(seed)];
      const input = `${JSON.stringify({ id: ligand.id, smiles: ligand.smiles, file })}\n`;
      const run = await runTool(STRUCTURE_PYTHON, argv, { input, timeoutMs });
      const failure = describeToolFailure("ligand preparation (Open Babel + RDKit)", run, timeoutMs);
      const unassessed = (reason: string): PreparedLigandUnassessed => ({
        status: "unassessed",
        id: ligand.id,
        smiles: ligand.smiles,
        reason,
      });
      if (failure) return unassessed(failure);
      let out: Record<string, unknown>;
      try {
        out = JSON.parse(run.stdout.trim().split("\n").at(-1) ?? "") as Record<string, unknown>;
      } catch {
        return unassessed(`ligand preparation printed no result: ${run.stderr.trim().slice(0, 300)}`);
      }
      if (typeof out.error === "string") return unassessed(out.error);
      return {
        status: "prepared",
        id: ligand.id,
        smiles: ligand.smiles,
        protonatedSmiles: String(out.protonated_smiles),
        sdfPath: String(out.sdf),
        pdbqtPath: String(out.pdbqt),
        heavyAtoms: Number(out.heavy_atoms),
        formalCharge: Number(out.formal_charge),
        torsions: Number(out.torsions),
        invocation: { tool: "prepare_ligand.py", argv: [STRUCTURE_PYTHON, ...argv] },
      };
    },
  };
}

/** One ligand, prepared into `workDir` (see `createLigandPreparer`). */
export function prepareLigand(ligand: LigandInput, options: LigandPreparerOptions): Promise<PreparedLigand> {
  return createLigandPreparer(options).prepare(ligand);
}
