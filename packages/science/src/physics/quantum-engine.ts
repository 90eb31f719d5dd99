/** A molecule as the quantum engines take it: element symbols, Cartesian coordinates (Å), net charge. */
export interface Geometry {
  readonly symbols: readonly string[];
  readonly coordinates: readonly (readonly [number, number, number])[];
  readonly charge: number;
}

/** What one engine calculation gave, or why it gave nothing. */
export type QuantumResult =
  | {
      readonly status: "ok";
      /** Total energy in kcal/mol (GFN2: electronic + solvation, Eh × 627.5095; PM7: heat of formation). */
      readonly energyKcalMol: number;
      readonly gapEv: number | null;
      /** Atomic partial charges in the geometry's atom order; null when the engine's output has none. */
      readonly charges: readonly number[] | null;
      readonly dipoleDebye: number | null;
      /** The optimised geometry (an optimisation), or the input (a single point). */
      readonly geometry: Geometry;
      /** CPU time the program used (ms); its wall time when /proc could not be read. */
      readonly cpuMs: number;
    }
  | { readonly status: "failed"; readonly reason: string; readonly cpuMs: number };

/**
 * The role a semi-empirical quantum program plays in the ligand physics audit (issue 40 item 1):
 * GFN2-xTB (`xtb`) is the method, PM7 (`mopac`) the independent check. Each call runs the program as a
 * subprocess in a folder of its own, under a CPU budget (run-tool.ts), and never throws.
 */
export interface QuantumEngine {
  /** The method as the card names it, e.g. "GFN2-xTB/ALPB(water)". */
  readonly method: string;
  singlePoint(geometry: Geometry, cpuBudgetMs: number): Promise<QuantumResult>;
  /** A local minimisation from the geometry; engines without one report failed. */
  optimise(geometry: Geometry, cpuBudgetMs: number): Promise<QuantumResult>;
}

/** Hartree to kcal/mol (CODATA 2018: 627.5094740631). */
export const HARTREE_KCAL_MOL = 627.5094740631;

/** The geometry as an XYZ file. */
export function toXyz(geometry: Geometry, title = "ligand"): string {
  const lines = geometry.coordinates.map(
    ([x, y, z], i) => `${geometry.symbols[i]} ${x.toFixed(6)} ${y.toFixed(6)} ${z.toFixed(6)}`,
  );
  return `${geometry.symbols.length}\n${title}\n${lines.join("\n")}\n`;
}

/** Coordinates read back from an XYZ file, in the same atom order; null when it does not match. */
export function readXyz(text: string, like: Geometry): Geometry | null {
  const lines = text.split("\n");
  const count = Number(lines[0]?.trim());
  if (count !== like.symbols.length) return null;
  const coordinates: [number, number, number][] = [];
  for (let i = 0; i < count; i++) {
    const [symbol, x, y, z] = (lines[i + 2] ?? "").trim().split(/\s+/);
    const xyz = [Number(x), Number(y), Number(z)] as [number, number, number];
    if (symbol?.toLowerCase() !== like.symbols[i]?.toLowerCase() || xyz.some((v) => !Number.isFinite(v)))
      return null;
    coordinates.push(xyz);
  }
  return { symbols: like.symbols, coordinates, charge: like.charge };
}
