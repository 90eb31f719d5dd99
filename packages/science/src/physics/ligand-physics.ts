import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { round } from "../numeric/round.ts";
import { cpuSecondsOf, describeToolFailure, runTool } from "../structure/run-tool.ts";
import { STRUCTURE_PYTHON } from "../structure/tool-versions.ts";
import { type LigandReactivity, ligandReactivity } from "./ligand-reactivity.ts";
import { createMopacEngine } from "./mopac-engine.ts";
import type { Geometry, QuantumEngine, QuantumResult } from "./quantum-engine.ts";
import { createXtbEngine } from "./xtb-engine.ts";

const CONFORMER_SCRIPT = fileURLToPath(new URL("./python/ligand_conformers.py", import.meta.url));

/** The gate of the audit (issue 40 item 1): one fragment, at most this many heavy atoms. */
export const PHYSICS_MAX_HEAVY_ATOMS = 100;

/**
 * Conformer search settings per profile: ETKDG conformers embedded, and the lowest-MMFF distinct
 * ones GFN2-optimised (the cost). Deep searches wider.
 */
export const CONFORMER_SEARCH = {
  standard: { embed: 30, optimise: 8 },
  deep: { embed: 100, optimise: 20 },
} as const;

/** The RDKit seed of the conformer search (recorded in every result). */
export const CONFORMER_SEED = 42;

export interface LigandPhysicsOptions {
  readonly workDir: string;
  /** CPU time the whole audit of one ligand may use (ms): past it the search stops and says so. */
  readonly cpuBudgetMs: number;
  /** `electronic`: the relaxed input only (gap, charges, PM7 check); `strain`: also the conformer search. */
  readonly parts: "electronic" | "strain";
  readonly search?: { readonly embed: number; readonly optimise: number };
  readonly gfn2?: QuantumEngine;
  readonly pm7?: QuantumEngine;
}

export interface ChargeSummary {
  readonly most_negative: { readonly atom: number; readonly element: string; readonly charge: number };
  readonly most_positive: { readonly atom: number; readonly element: string; readonly charge: number };
  /** Sum of the heteroatoms' (N, O, S, halogen) partial charges. */
  readonly heteroatom_sum: number;
}

export type LigandPhysics =
  | { readonly status: "not_assessed"; readonly reason: string; readonly cpu_seconds: number }
  | {
      readonly status: "assessed";
      readonly heavy_atoms: number;
      readonly net_charge: number;
      /** The input geometry relaxed to its nearest local minimum (GFN2): what the strain and gap refer to. */
      readonly local_minimum: {
        readonly gfn2_gap_ev: number | null;
        readonly dipole_debye: number | null;
        readonly charges: ChargeSummary | null;
        /** GFN2 single point of the input geometry minus the local minimum (kcal/mol): hydrogens placed, not relaxed, count here. */
        readonly relaxation_kcal_mol: number | null;
      };
      /** IP, EA, electrophilicity and Fukui sites at the local minimum (GFN2 gas phase, vertical). */
      readonly reactivity: LigandReactivity;
      readonly pm7: {
        readonly gap_ev: number | null;
        readonly dipole_debye: number | null;
        readonly reason: string | null;
      };
      /** Strain part only (null for `electronic`). */
      readonly strain: {
        /** Local minimum near the input minus the global-minimum estimate, GFN2 (Perola & Charifson 2004), ≥ 0. */
        readonly gfn2_kcal_mol: number;
        /** The same two geometries' PM7 single points (PM7 heat of formation difference); null when PM7 failed. */
        readonly pm7_kcal_mol: number | null;
        readonly global_minimum_from: "input local minimum" | "conformer search";
        readonly conformers_embedded: number;
        readonly conformers_optimised: number;
        readonly conformers_failed: number;
        /** True when the CPU budget stopped the search before every conformer was optimised. */
        readonly budget_exhausted: boolean;
        readonly search: { readonly embed: number; readonly optimise: number; readonly seed: number };
      } | null;
      readonly methods: { readonly gfn2: string; readonly pm7: string };
      readonly cpu_seconds: number;
    };

interface Prepared {
  readonly symbols: string[];
  readonly charge: number;
  readonly heavy_atoms: number;
  readonly fragments: number;
  readonly input: [number, number, number][];
  readonly conformers: [number, number, number][][];
  readonly embedded: number;
}

/** CPU time (ms) of this process's waited-for children (cutime + cstime of /proc/self/stat, proc(5)). */
export function childrenCpuMs(): number | null {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const total = Number(fields[13]) + Number(fields[14]);
    return Number.isFinite(total) ? total * 10 : null;
  } catch {
    return null;
  }
}

/**
 * The physics audit of one ligand file (a docked pose, or a crystal ligand): GFN2-xTB relaxation of
 * the input to its local minimum (gap, charges, dipole), PM7 single points as the check, and for
 * `strain` an ETKDG conformer search whose GFN2 minima give the global-minimum estimate; the strain
 * is local minus global (Perola & Charifson, J. Med. Chem. 2004, 47, 2499). Never throws: a ligand
 * it cannot judge is `not_assessed` with the reason.
 */
export async function auditLigandPhysics(
  sdfPath: string,
  options: LigandPhysicsOptions,
): Promise<LigandPhysics> {
  const started = childrenCpuMs();
  let spent = 0;
  const cpuSeconds = () => {
    const now = childrenCpuMs();
    return round((now !== null && started !== null ? now - started : spent) / 1000, 2);
  };
  const notAssessed = (reason: string): LigandPhysics => ({
    status: "not_assessed",
    reason,
    cpu_seconds: cpuSeconds(),
  });
  const search = options.search ?? CONFORMER_SEARCH.standard;
  const prep = await runTool(
    STRUCTURE_PYTHON,
    [
      CONFORMER_SCRIPT,
      sdfPath,
      String(options.parts === "strain" ? search.embed : 0),
      String(CONFORMER_SEED),
      String(search.optimise),
    ],
    { cpuSeconds: cpuSecondsOf(options.cpuBudgetMs), timeoutMs: options.cpuBudgetMs * 10 },
  );
  spent += prep.cpuMs ?? prep.durationMs;
  const prepFailure = describeToolFailure(
    "ligand_conformers.py",
    prep,
    options.cpuBudgetMs * 10,
    cpuSecondsOf(options.cpuBudgetMs),
  );
  if (prepFailure !== null) return notAssessed(prepFailure);
  const prepared = JSON.parse(prep.stdout) as Prepared | { error: string };
  if ("error" in prepared) return notAssessed(prepared.error);
  if (prepared.fragments !== 1)
    return notAssessed(`gate: ${prepared.fragments} fragments; the audit takes a single fragment`);
  if (prepared.heavy_atoms > PHYSICS_MAX_HEAVY_ATOMS)
    return notAssessed(`gate: ${prepared.heavy_atoms} heavy atoms, above ${PHYSICS_MAX_HEAVY_ATOMS}`);
  const gfn2 = options.gfn2 ?? createXtbEngine({ workDir: options.workDir });
  const pm7 = options.pm7 ?? createMopacEngine({ workDir: options.workDir });
  const remaining = () => options.cpuBudgetMs - spent;
  const call = async (work: (budget: number) => Promise<QuantumResult>): Promise<QuantumResult> => {
    const result = await work(Math.max(remaining(), 1));
    spent += result.cpuMs;
    return result;
  };
  const geometryOf = (coordinates: [number, number, number][]): Geometry => ({
    symbols: prepared.symbols,
    coordinates,
    charge: prepared.charge,
  });
  const input = geometryOf(prepared.input);
  const local = await call((budget) => gfn2.optimise(input, budget));
  if (local.status !== "ok") return notAssessed(`GFN2 relaxation of the input: ${local.reason}`);
  const inputPoint = await call((budget) => gfn2.singlePoint(input, budget));
  const localPm7 = await call((budget) => pm7.singlePoint(local.geometry, budget));
  const reactivity = await ligandReactivity(local.geometry, Math.max(remaining(), 1), {
    workDir: options.workDir,
  });
  spent += reactivity.cpu_seconds * 1000;
  let strain: Extract<LigandPhysics, { status: "assessed" }>["strain"] = null;
  if (options.parts === "strain") {
    const minima: { gfn2: number; geometry: Geometry }[] = [];
    let failed = 0;
    let exhausted = false;
    for (const coordinates of prepared.conformers) {
      if (remaining() <= 0) {
        exhausted = true;
        break;
      }
      const result = await call((budget) => gfn2.optimise(geometryOf(coordinates), budget));
      if (result.status === "ok") minima.push({ gfn2: result.energyKcalMol, geometry: result.geometry });
      else if (/CPU budget/.test(result.reason)) exhausted = true;
      else failed++;
    }
    const best = minima.reduce<(typeof minima)[number] | null>(
      (a, b) => (a === null || b.gfn2 < a.gfn2 ? b : a),
      null,
    );
    const searchWins = best !== null && best.gfn2 < local.energyKcalMol;
    let pm7Strain: number | null = null;
    if (!searchWins) pm7Strain = localPm7.status === "ok" ? 0 : null;
    else if (localPm7.status === "ok" && best !== null) {
      const globalPm7 = await call((budget) => pm7.singlePoint(best.geometry, budget));
      if (globalPm7.status === "ok") pm7Strain = round(localPm7.energyKcalMol - globalPm7.energyKcalMol, 2);
    }
    strain = {
      gfn2_kcal_mol: searchWins && best !== null ? round(local.energyKcalMol - best.gfn2, 2) : 0,
      pm7_kcal_mol: pm7Strain,
      global_minimum_from: searchWins ? "conformer search" : "input local minimum",
      conformers_embedded: prepared.embedded,
      conformers_optimised: minima.length,
      conformers_failed: failed,
      budget_exhausted: exhausted,
      search: { ...search, seed: CONFORMER_SEED },
    };
  }
  return {
    status: "assessed",
    heavy_atoms: prepared.heavy_atoms,
    net_charge: prepared.charge,
    local_minimum: {
      gfn2_gap_ev: local.gapEv === null ? null : round(local.gapEv, 3),
      dipole_debye: local.dipoleDebye,
      charges: local.charges === null ? null : summariseCharges(prepared.symbols, local.charges),
      relaxation_kcal_mol:
        inputPoint.status === "ok" ? round(inputPoint.energyKcalMol - local.energyKcalMol, 2) : null,
    },
    reactivity,
    pm7: {
      gap_ev: localPm7.status === "ok" ? localPm7.gapEv : null,
      dipole_debye: localPm7.status === "ok" ? localPm7.dipoleDebye : null,
      reason: localPm7.status === "ok" ? null : localPm7.reason,
    },
    strain,
    methods: { gfn2: gfn2.method, pm7: pm7.method },
    cpu_seconds: cpuSeconds(),
  };
}

const HETERO = new Set(["N", "O", "S", "F", "Cl", "Br", "I", "P"]);

function summariseCharges(symbols: readonly string[], charges: readonly number[]): ChargeSummary {
  let low = 0;
  let high = 0;
  let hetero = 0;
  charges.forEach((q, i) => {
    if (q < (charges[low] ?? 0)) low = i;
    if (q > (charges[high] ?? 0)) high = i;
    if (HETERO.has(symbols[i] ?? "")) hetero += q;
  });
  const atom = (i: number) => ({ atom: i, element: symbols[i] ?? "?", charge: round(charges[i] ?? 0, 3) });
  return { most_negative: atom(low), most_positive: atom(high), heteroatom_sum: round(hetero, 3) };
}
