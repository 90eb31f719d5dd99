import { atomStereocentres } from "../parent/atom-stereocentres.ts";
import type { Mol } from "../rdkit.ts";
import { molJson } from "../rdkit-json.ts";
import { fragmentScores } from "./fragment-scores.ts";
import { isotopeMassDelta } from "./isotope-mass-deltas.ts";
import { moleculeGraph } from "./molecule-graph.ts";
import { morganCounts } from "./morgan-counts.ts";
import { connectivityInvariants } from "./morgan-invariants.ts";
import { ringJunctions } from "./ring-junctions.ts";
import { type SaScore, saScore } from "./sa-score.ts";

/** sascorer.py's fingerprint radius (`GetMorganFingerprint(m, 2)`). */
export const SA_MORGAN_RADIUS = 2;
/** sascorer.py counts a ring of more than this many atoms as a macrocycle. */
export const SA_MACROCYCLE_OVER = 8;

/** The SA score of one molecule and the counts it rests on. */
export interface SaProfile extends SaScore {
  readonly heavy_atoms: number;
  readonly stereocentres: number;
  readonly spiro_atoms: number;
  readonly bridgehead_atoms: number;
  readonly has_macrocycle: boolean;
  /** Distinct radius-2 Morgan environments. */
  readonly morgan_environments: number;
}

/**
 * Reads RDKit WebAssembly's graph and descriptors of `mol` and scores it as sascorer.py does:
 * Morgan counts from the TypeScript port; stereocentres as sascorer.py counts them
 * (`FindMolChiralCenters(includeUnassigned=True)`), from the one count every module uses
 * (`atomStereocentres`); spiro and bridgehead atoms and macrocycles from RDKit's ring set.
 */
export function saProfile(mol: Mol): SaProfile {
  const graph = moleculeGraph(molJson(mol));
  const morgan = morganCounts(graph, connectivityInvariants(graph, isotopeMassDelta), SA_MORGAN_RADIUS);
  const junctions = ringJunctions(graph);
  const counts = {
    heavyAtoms: graph.atoms.length,
    stereocentres: atomStereocentres(mol).total,
    spiroAtoms: junctions.spiro,
    bridgeheadAtoms: junctions.bridgehead,
    hasMacrocycle: graph.atomRings.some((ring) => ring.length > SA_MACROCYCLE_OVER),
  };
  return {
    ...saScore({ morgan, ...counts }, fragmentScores()),
    heavy_atoms: counts.heavyAtoms,
    stereocentres: counts.stereocentres,
    spiro_atoms: counts.spiroAtoms,
    bridgehead_atoms: counts.bridgeheadAtoms,
    has_macrocycle: counts.hasMacrocycle,
    morgan_environments: morgan.size,
  };
}
