import { round } from "../numeric/round.ts";
import { type CondensedFukui, condensedFukui, electrophilicityIndex, largestAt } from "./condensed-fukui.ts";
import { electronCountProblem } from "./electron-count.ts";
import type { Geometry } from "./quantum-engine.ts";
import { callXtb, lastNumber, type XtbEngineOptions } from "./xtb-engine.ts";

/**
 * How the reactivity descriptors are computed, as the card and each result name it: GFN2-xTB in the gas
 * phase at the ligand's GFN2 (ALPB water) local minimum, no relaxation of the ions (vertical).
 */
export const REACTIVITY_METHOD =
  "GFN2-xTB gas phase, vertical: IP/EA by xtb --vipea (ΔSCC with xtb's empirical shift), condensed Fukui " +
  "functions from the charges of the N, N+1 and N−1 electron systems (Yang & Mortier 1986)";

export interface AtomValue {
  readonly atom: number;
  readonly element: string;
  readonly value: number;
}

export type LigandReactivity =
  | { readonly status: "not_assessed"; readonly reason: string; readonly cpu_seconds: number }
  | {
      readonly status: "assessed";
      readonly method: string;
      /** Vertical ionisation potential and electron affinity (eV). */
      readonly ip_ev: number;
      readonly ea_ev: number;
      /** ω = μ²/2η (Parr et al. 1999), on this method's IP/EA scale (eV); null when IP ≤ EA. */
      readonly electrophilicity_ev: number | null;
      /** The carbon with the largest f⁺: where a soft nucleophile (a cysteine thiol) would add. */
      readonly most_electrophilic_carbon: AtomValue | null;
      /** The heavy atom with the largest f⁻: where an electrophile or an oxidant would attack. */
      readonly most_nucleophilic_atom: AtomValue | null;
      readonly cpu_seconds: number;
    };

/**
 * The reactivity descriptors of one closed-shell ligand at the given geometry (issue 40 item 1: Fukui
 * indices and IP/EA for electrophile warnings): four xtb processes — the N, N+1 and N−1 electron
 * single points whose charges give the condensed Fukui functions, and `--vipea` for the IP and EA.
 * Never throws: what it cannot compute is not_assessed with the reason.
 */
export async function ligandReactivity(
  geometry: Geometry,
  cpuBudgetMs: number,
  options: XtbEngineOptions,
): Promise<LigandReactivity> {
  let spentMs = 0;
  const notAssessed = (reason: string): LigandReactivity => ({
    status: "not_assessed",
    reason,
    cpu_seconds: round(spentMs / 1000, 2),
  });
  const shellProblem = electronCountProblem(geometry);
  if (shellProblem !== null) return notAssessed(`${shellProblem}: the audit takes closed-shell ligands`);
  const fukui = await fukuiAt(geometry, cpuBudgetMs, options);
  spentMs += fukui.cpuMs;
  if ("reason" in fukui) return notAssessed(fukui.reason);
  const vipea = await callXtb(
    geometry,
    ["--gfn", "2", "--chrg", String(geometry.charge), "--vipea"],
    Math.max(cpuBudgetMs - spentMs, 1),
    options,
  );
  spentMs += vipea.cpuMs;
  if (vipea.status === "failed") return notAssessed(`xtb --vipea: ${vipea.reason}`);
  const ip = lastNumber(vipea.stdout, /delta SCC IP \(eV\):\s+(-?\d+\.\d+)/g);
  const ea = lastNumber(vipea.stdout, /delta SCC EA \(eV\):\s+(-?\d+\.\d+)/g);
  if (ip === null || ea === null) return notAssessed("xtb --vipea printed no IP or EA");
  const at = (found: { atom: number; value: number } | null): AtomValue | null =>
    found === null
      ? null
      : { atom: found.atom, element: geometry.symbols[found.atom] ?? "?", value: round(found.value, 3) };
  const omega = electrophilicityIndex(ip, ea);
  return {
    status: "assessed",
    method: REACTIVITY_METHOD,
    ip_ev: round(ip, 3),
    ea_ev: round(ea, 3),
    electrophilicity_ev: omega === null ? null : round(omega, 3),
    most_electrophilic_carbon: at(largestAt(fukui.functions.fPlus, (atom) => geometry.symbols[atom] === "C")),
    most_nucleophilic_atom: at(largestAt(fukui.functions.fMinus, (atom) => geometry.symbols[atom] !== "H")),
    cpu_seconds: round(spentMs / 1000, 2),
  };
}

/**
 * The condensed Fukui functions of the geometry from three GFN2 gas-phase single points: N electrons,
 * N + 1 and N − 1 (doublets: one unpaired electron), each xtb's charges.
 */
export async function fukuiAt(
  geometry: Geometry,
  cpuBudgetMs: number,
  options: XtbEngineOptions,
): Promise<
  | { readonly functions: CondensedFukui; readonly cpuMs: number }
  | { readonly reason: string; readonly cpuMs: number }
> {
  let cpuMs = 0;
  const charges: (readonly number[])[] = [];
  for (const [charge, unpaired] of [
    [geometry.charge, 0],
    [geometry.charge - 1, 1],
    [geometry.charge + 1, 1],
  ] as const) {
    const call = await callXtb(
      geometry,
      ["--gfn", "2", "--chrg", String(charge), "--uhf", String(unpaired)],
      Math.max(cpuBudgetMs - cpuMs, 1),
      options,
    );
    cpuMs += call.cpuMs;
    if (call.status === "failed")
      return { reason: `GFN2 single point at charge ${charge}: ${call.reason}`, cpuMs };
    if (call.charges === null) return { reason: `xtb wrote no charges at charge ${charge}`, cpuMs };
    charges.push(call.charges);
  }
  const [neutral = [], anion = [], cation = []] = charges;
  const functions = condensedFukui(neutral, anion, cation);
  if (functions === null) return { reason: "the three charge sets do not have one charge per atom", cpuMs };
  return { functions, cpuMs };
}
