import { selectCalphas } from "./amino-acids.ts";
import { buildAnmHessian } from "./anm-hessian.ts";
import { computeNormalModes } from "./anm-modes.ts";
import { ANM_CUTOFF_ANGSTROM, ANM_GAMMA, MAX_CALPHAS } from "./dynamics-nma.ts";
import { parseAtomRecord, parsePdb } from "./parse-pdb.ts";
import type { StructureAtom } from "./structure-atom.ts";
import type { Vec3 } from "./vec3.ts";

/** The deep profile's receptor ensemble: conformers along the lowest this-many non-zero ANM modes. */
export const ENSEMBLE_MODES = 3;
/** How far each conformer is displaced: this Cα RMSD (Å) from the crystal receptor, in both directions. */
export const ENSEMBLE_CALPHA_RMSD = 1;

/** The rule in words, for the method card and the result (issue 25 item 7). */
export const ENSEMBLE_RULE =
  `the crystal receptor plus, for each of the ${ENSEMBLE_MODES} lowest non-zero ANM modes of its Cα atoms ` +
  `(cutoff ${ANM_CUTOFF_ANGSTROM} Å, γ ${ANM_GAMMA}), two conformers displaced along the mode by +${ENSEMBLE_CALPHA_RMSD} ` +
  `and −${ENSEMBLE_CALPHA_RMSD} Å Cα RMSD; every atom of a residue moves with its Cα, an atom of a residue with no Cα ` +
  "(a cofactor, a kept ion) with the Cα nearest to its residue's first atom";

/** One conformer's displacement: which mode, which way, and the shift of every Cα (Å), in Cα order. */
export interface AnmConformer {
  /** `anm_mode_<k>_plus` / `anm_mode_<k>_minus`. */
  readonly label: string;
  /** 1-based among the non-zero modes. */
  readonly mode: number;
  readonly direction: 1 | -1;
  readonly eigenvalue: number;
  readonly calphaRmsd: number;
  readonly shifts: readonly Vec3[];
}

export type AnmConformerPlan =
  | {
      readonly status: "planned";
      /** Residue key (name, chain, number, insertion code: {@link residueKeyOf}) of each Cα, in file order. */
      readonly residues: readonly string[];
      readonly calphas: readonly Vec3[];
      readonly conformers: readonly AnmConformer[];
    }
  | { readonly status: "not_planned"; readonly reason: string };

/** A residue's key: name, chain, number and insertion code. */
function residueKeyOf(atom: StructureAtom): string {
  return `${atom.resName}\u0000${atom.chain}\u0000${atom.resSeq}\u0000${atom.iCode}`;
}

/**
 * Plans the deep profile's receptor conformers (pure): the ANM of the receptor's Cα atoms (the
 * dynamics_nma model, Atilgan et al. 2001), and for each of the {@link ENSEMBLE_MODES} lowest modes
 * the Cα shifts of +/−{@link ENSEMBLE_CALPHA_RMSD} Å RMSD along it. This is ProDy's `traverseMode`
 * (a mode scaled to a target RMSD) applied as `extendModel` does (each atom moved with its residue's
 * node), the way Bakan & Bahar (Pac. Symp. Biocomput. 2011, 181–192) sampled ANM conformers of p38
 * MAP kinase for docking. A mode's sign is arbitrary, so it is fixed: its largest component is positive.
 */
export function planAnmConformers(receptorPdb: string): AnmConformerPlan {
  const calphas = selectCalphas(parsePdb(receptorPdb));
  if (calphas.length < 3)
    return { status: "not_planned", reason: `${calphas.length} Cα atoms: too few for a network` };
  if (calphas.length > MAX_CALPHAS)
    return {
      status: "not_planned",
      reason: `${calphas.length} Cα atoms, more than the ${MAX_CALPHAS} a 10-minute CPU budget allows (the CPU grows as about N^2.4)`,
    };
  const nodes = calphas.map((calpha) => calpha.position);
  const modes = computeNormalModes(buildAnmHessian(nodes, ANM_CUTOFF_ANGSTROM, ANM_GAMMA), ENSEMBLE_MODES);
  // A unit 3N vector scaled by r·√N moves the N Cα atoms by an RMSD of exactly r.
  const scale = ENSEMBLE_CALPHA_RMSD * Math.sqrt(nodes.length);
  const conformers: AnmConformer[] = [];
  modes.vectors.forEach((vector, k) => {
    let largest = 0;
    for (const value of vector) if (Math.abs(value) > Math.abs(largest)) largest = value;
    const sign = largest < 0 ? -1 : 1;
    for (const direction of [1, -1] as const) {
      const factor = scale * sign * direction;
      conformers.push({
        label: `anm_mode_${k + 1}_${direction === 1 ? "plus" : "minus"}`,
        mode: k + 1,
        direction,
        eigenvalue: modes.eigenvalues[k] ?? 0,
        calphaRmsd: ENSEMBLE_CALPHA_RMSD,
        shifts: nodes.map((_, i) => [
          (vector[3 * i] ?? 0) * factor,
          (vector[3 * i + 1] ?? 0) * factor,
          (vector[3 * i + 2] ?? 0) * factor,
        ]),
      });
    }
  });
  return {
    status: "planned",
    residues: calphas.map(residueKeyOf),
    calphas: nodes,
    conformers,
  };
}

/**
 * A PDB or PDBQT text with every atom moved by its residue's Cα shift (see {@link ENSEMBLE_RULE});
 * all other columns, the charges and AutoDock types of a PDBQT included, are kept byte for byte.
 */
export function displaceStructureText(
  text: string,
  plan: Extract<AnmConformerPlan, { status: "planned" }>,
  conformer: AnmConformer,
): string {
  const indexOfResidue = new Map(plan.residues.map((residue, at) => [residue, at]));
  const nearest = (point: Vec3): number => {
    let best = 0;
    let bestDistance = Number.POSITIVE_INFINITY;
    plan.calphas.forEach((calpha, at) => {
      const d = (calpha[0] - point[0]) ** 2 + (calpha[1] - point[1]) ** 2 + (calpha[2] - point[2]) ** 2;
      if (d < bestDistance) {
        bestDistance = d;
        best = at;
      }
    });
    return best;
  };
  const lines = text.split("\n");
  return lines
    .map((line) => {
      if (!line.startsWith("ATOM  ") && !line.startsWith("HETATM")) return line;
      const atom = parseAtomRecord(line);
      const residue = residueKeyOf(atom);
      let at = indexOfResidue.get(residue);
      if (at === undefined) {
        at = nearest(atom.position);
        indexOfResidue.set(residue, at);
      }
      const shift = conformer.shifts[at] ?? [0, 0, 0];
      const [x, y, z] = atom.position;
      const moved = [x + (shift[0] ?? 0), y + (shift[1] ?? 0), z + (shift[2] ?? 0)]
        .map((value) => value.toFixed(3).padStart(8))
        .join("");
      return `${line.slice(0, 30)}${moved}${line.slice(54)}`;
    })
    .join("\n");
}
