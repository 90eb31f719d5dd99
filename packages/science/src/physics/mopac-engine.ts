import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { cpuSecondsOf, describeToolFailure, runTool } from "../structure/run-tool.ts";
import type { Geometry, QuantumEngine, QuantumResult } from "./quantum-engine.ts";

/**
 * PM7 (Stewart, J. Mol. Model. 2013, 19, 1) with COSMO water (EPS=78.4; Klamt & Schüürmann, J. Chem.
 * Soc., Perkin Trans. 2 1993, 799), Debian's `mopac` 22: the independent check of the GFN2-xTB
 * energies and gaps, as single points (1SCF) on the GFN2 geometries.
 */
export const PM7_METHOD = "PM7/COSMO(water)";

export interface MopacEngineOptions {
  readonly workDir: string;
  readonly command?: string;
}

let sequence = 0;

export function createMopacEngine(options: MopacEngineOptions): QuantumEngine {
  const command = options.command ?? "mopac";
  const singlePoint = async (geometry: Geometry, cpuBudgetMs: number): Promise<QuantumResult> => {
    const dir = join(options.workDir, `mopac-${process.pid}-${++sequence}`);
    await mkdir(dir, { recursive: true });
    try {
      // Cartesian input with every optimisation flag 0: a single point on the given geometry.
      const atoms = geometry.coordinates.map(
        ([x, y, z], i) => `${geometry.symbols[i]} ${x.toFixed(6)} 0 ${y.toFixed(6)} 0 ${z.toFixed(6)} 0`,
      );
      await writeFile(
        join(dir, "job.mop"),
        `PM7 1SCF EPS=78.4 CHARGE=${geometry.charge}\nligand\n\n${atoms.join("\n")}\n`,
      );
      const result = await runTool(command, ["job.mop"], {
        cwd: dir,
        cpuSeconds: cpuSecondsOf(cpuBudgetMs),
        timeoutMs: cpuBudgetMs * 10,
      });
      const cpuMs = result.cpuMs ?? result.durationMs;
      const failure = describeToolFailure("mopac", result, cpuBudgetMs * 10, cpuSecondsOf(cpuBudgetMs));
      if (failure !== null) return { status: "failed", reason: failure, cpuMs };
      let out: string;
      try {
        out = await readFile(join(dir, "job.out"), "utf8");
      } catch {
        return { status: "failed", reason: "mopac wrote no output file", cpuMs };
      }
      const heat = /FINAL HEAT OF FORMATION =\s+(-?\d+\.\d+) KCAL\/MOL/.exec(out);
      if (heat === null) {
        const error = /\*\s*ERROR[^\n]*|(?:UNABLE|IMPOSSIBLE|NOT AVAILABLE)[^\n]*/.exec(out)?.[0]?.trim();
        return {
          status: "failed",
          reason: `mopac printed no heat of formation${error ? `: ${error}` : ""}`,
          cpuMs,
        };
      }
      const frontier = /HOMO LUMO ENERGIES \(EV\) =\s+(-?\d+\.\d+)\s+(-?\d+\.\d+)/.exec(out);
      const dipole = /^\s*SUM\s+-?\d+\.\d+\s+-?\d+\.\d+\s+-?\d+\.\d+\s+(\d+\.\d+)/m.exec(out);
      return {
        status: "ok",
        energyKcalMol: Number(heat[1]),
        gapEv: frontier ? Math.round((Number(frontier[2]) - Number(frontier[1])) * 1000) / 1000 : null,
        charges: null,
        dipoleDebye: dipole ? Number(dipole[1]) : null,
        geometry,
        cpuMs,
      };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };
  return {
    method: PM7_METHOD,
    singlePoint,
    optimise: async () => ({ status: "failed", reason: "the PM7 check runs single points only", cpuMs: 0 }),
  };
}
