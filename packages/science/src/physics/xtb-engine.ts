import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { cpuSecondsOf, describeToolFailure, runTool } from "../structure/run-tool.ts";
import {
  type Geometry,
  HARTREE_KCAL_MOL,
  type QuantumEngine,
  type QuantumResult,
  readXyz,
  toXyz,
} from "./quantum-engine.ts";

/**
 * GFN2-xTB (Bannwarth, Ehlert & Grimme, J. Chem. Theory Comput. 2019, 15, 1652) with ALPB water
 * (Ehlert, Stahn, Spicher & Grimme, J. Chem. Theory Comput. 2021, 17, 4250), Debian's `xtb` 6.5.1,
 * one thread (`-P 1`: one CPU per process, as Vina). Optimisations at xtb's "normal" level.
 */
export const XTB_METHOD = "GFN2-xTB/ALPB(water)";

export interface XtbEngineOptions {
  /** A scratch folder; each call works in a subfolder of its own, removed afterwards. */
  readonly workDir: string;
  /** The program; default `xtb` on PATH. */
  readonly command?: string;
}

let sequence = 0;

/** What one xtb process printed and wrote, or why it failed. */
export type XtbCall =
  | {
      readonly status: "ok";
      readonly stdout: string;
      readonly charges: number[] | null;
      readonly optimised: string | null;
      readonly cpuMs: number;
    }
  | { readonly status: "failed"; readonly reason: string; readonly cpuMs: number };

/**
 * One xtb process on the geometry in a folder of its own (removed afterwards), one thread, under a CPU
 * budget: `args` come after the input file (method, solvent, charge, run type). Never throws.
 */
export async function callXtb(
  geometry: Geometry,
  args: readonly string[],
  cpuBudgetMs: number,
  options: XtbEngineOptions,
): Promise<XtbCall> {
  const dir = join(options.workDir, `xtb-${process.pid}-${++sequence}`);
  await mkdir(dir, { recursive: true });
  try {
    await writeFile(join(dir, "in.xyz"), toXyz(geometry));
    const result = await runTool(options.command ?? "xtb", ["in.xyz", ...args, "-P", "1"], {
      cwd: dir,
      cpuSeconds: cpuSecondsOf(cpuBudgetMs),
      // The ceiling for a hang on a loaded machine: ten times the CPU budget.
      timeoutMs: cpuBudgetMs * 10,
    });
    const cpuMs = result.cpuMs ?? result.durationMs;
    const failure = describeToolFailure("xtb", result, cpuBudgetMs * 10, cpuSecondsOf(cpuBudgetMs));
    if (failure !== null) return { status: "failed", reason: failure, cpuMs };
    return {
      status: "ok",
      stdout: result.stdout,
      charges: await readCharges(join(dir, "charges"), geometry.symbols.length),
      optimised: await readFile(join(dir, "xtbopt.xyz"), "utf8").catch(() => null),
      cpuMs,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export function createXtbEngine(options: XtbEngineOptions): QuantumEngine {
  const run = async (geometry: Geometry, optimise: boolean, cpuBudgetMs: number): Promise<QuantumResult> => {
    const args = ["--gfn", "2", "--alpb", "water", "--chrg", String(geometry.charge)];
    if (optimise) args.push("--opt", "normal");
    const call = await callXtb(geometry, args, cpuBudgetMs, options);
    if (call.status === "failed") return call;
    const { stdout, cpuMs } = call;
    const energy = lastNumber(stdout, /TOTAL ENERGY\s+(-?\d+\.\d+) Eh/g);
    if (energy === null) return { status: "failed", reason: "xtb printed no total energy", cpuMs };
    if (optimise && !/GEOMETRY OPTIMIZATION CONVERGED/.test(stdout))
      return { status: "failed", reason: "xtb's optimisation did not converge", cpuMs };
    const optimised = optimise
      ? call.optimised === null
        ? null
        : readXyz(call.optimised, geometry)
      : geometry;
    if (optimised === null)
      return { status: "failed", reason: "xtb's optimised geometry could not be read", cpuMs };
    return {
      status: "ok",
      energyKcalMol: energy * HARTREE_KCAL_MOL,
      gapEv: lastNumber(stdout, /HOMO-LUMO GAP\s+(-?\d+\.\d+) eV/g),
      charges: call.charges,
      dipoleDebye: dipoleOf(stdout),
      geometry: optimised,
      cpuMs,
    };
  };
  return {
    method: XTB_METHOD,
    singlePoint: (geometry, budget) => run(geometry, false, budget),
    optimise: (geometry, budget) => run(geometry, true, budget),
  };
}

export function lastNumber(text: string, pattern: RegExp): number | null {
  let value: number | null = null;
  for (const match of text.matchAll(pattern)) value = Number(match[1]);
  return value !== null && Number.isFinite(value) ? value : null;
}

/** xtb's `charges` file: one partial charge a line, in atom order. */
async function readCharges(path: string, atoms: number): Promise<number[] | null> {
  try {
    const values = (await readFile(path, "utf8")).trim().split(/\s+/).map(Number);
    return values.length === atoms && values.every(Number.isFinite) ? values : null;
  } catch {
    return null;
  }
}

/** The total of the "full:" line under "molecular dipole:" (Debye). */
function dipoleOf(stdout: string): number | null {
  const block = stdout.slice(stdout.lastIndexOf("molecular dipole:"));
  const full = /full:\s+(-?\d+\.\d+)\s+(-?\d+\.\d+)\s+(-?\d+\.\d+)\s+(\d+\.\d+)/.exec(block);
  return full ? Number(full[4]) : null;
}
