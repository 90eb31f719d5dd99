import { type CompoundFinding, findingBase, type MethodCard } from "../analysis-module.ts";
import { defineModule, type ParsedCompound } from "../define-module.ts";
import { round } from "../numeric/round.ts";
import { withParentMol } from "../parent/with-parent-mol.ts";
import { FRAGMENT_SCORES_FILE } from "./fragment-scores.ts";
import { type SaProfile, saProfile } from "./sa-profile.ts";

/**
 * The terms of the score and the counts they rest on, so a chemist sees why a molecule scores hard
 * (the terms rounded to 4 places).
 */
export type SaComponents = Omit<SaProfile, "sa_score">;

export interface SynthesisFinding extends CompoundFinding {
  readonly status: "assessed" | "not_assessed";
  readonly reason: string | null;
  /** Ertl & Schuffenhauer's SA score, 1 (easy) … 10 (hard), 3 decimals; null when not assessed. */
  readonly sa_score: number | null;
  readonly sa_components: SaComponents | null;
}

export interface SynthesisSummary {
  readonly assessed: number;
  readonly not_assessed: number;
  /** Median SA score of the assessed compounds, null when none was. */
  readonly sa_score_median: number | null;
  readonly method: MethodCard;
}

const ID = "synthesis_audit";

const METHOD: MethodCard = {
  what:
    "Synthetic accessibility (SA) score of the parent, 1 (easy to make) to 10 (very hard): the mean " +
    "contribution of its radius-2 Morgan fragments, weighted by how common each is in PubChem, minus a " +
    "complexity penalty (size, stereocentres, spiro and bridgehead atoms, rings over 8 atoms), plus a " +
    "symmetry correction; every term is reported. Unhashed Morgan ids come from a TypeScript port of " +
    "RDKit's algorithm over RDKit WebAssembly's graph (WebAssembly does not expose them).",
  citations: [
    "Ertl & Schuffenhauer, J. Cheminform. 2009, 1, 8 (SA score)",
    "RDKit Contrib SA_Score, sascorer.py (Ertl & Landrum 2013: macrocycle penalty, symmetry correction)",
    "Rogers & Hahn, J. Chem. Inf. Model. 2010, 50, 742 (circular fingerprints; RDKit's Morgan variant)",
  ],
  data: [FRAGMENT_SCORES_FILE, "isotope-mass-deltas.json"],
  validation:
    "Against native RDKit 2022.09 (Debian) on NCI first_5K, the 4,989 molecules both toolkits parse: " +
    "Morgan ids and counts identical to GetMorganFingerprint(mol, 2) on 4,989/4,989; SA score within " +
    "0.05 of native sascorer.py on 4,987/4,989 (99.96%; those 4,987 equal to 4e-15). The two outliers " +
    "(NCI-3384, NCI-3405, zinc and nickel complexes) differ in the stereocentres the two RDKit versions " +
    "perceive. On the first 2,000 ChEMBL compounds of the Lipophilicity set the SA score equals sascorer.py " +
    "on 2,000/2,000, stereocentres counted as sascorer.py counts them (FindMolChiralCenters with unassigned " +
    "centres, RDKit 2022.09's legacy perception) by every module. Test: synthesis/sa-score.validation.test.ts.",
  limits:
    "A score of how familiar the fragments are and how complex the graph is, not a route, step count or " +
    "cost. Fragment statistics come from PubChem as of 2009; fragments_known below about 0.5 means most " +
    "of the molecule was unseen (scored −4 each). Kept as sascorer.py computes it: above 8 the scale is " +
    "8 + ln(s − 8), which falls below 8 just above 8, so scores near 8 are unstable. A bond type other " +
    "than zero, single, double, triple, quadruple, aromatic or dative is not assessed.",
};

/** Synthetic accessibility (Ertl & Schuffenhauer 2009) of each parsed compound's parent. */
export const synthesisAudit = defineModule<SynthesisFinding, SynthesisFinding, SynthesisSummary>({
  id: ID,
  version: "1.0.0",
  description:
    "Synthetic accessibility score (Ertl & Schuffenhauer 2009) with its fragment and complexity terms",
  method: METHOD,
  requiredInputs: ["portfolio"],
  riskChannel: "manufacturability",
  notAssessed: (base) => ({ ...base, sa_score: null, sa_components: null }),
  assess: assessSynthesis,
  isAssessed: (finding) => finding.status === "assessed" && finding.sa_score !== null,
  createRun() {
    const scores: number[] = [];
    return {
      merge(finding) {
        if (finding.status === "assessed" && finding.sa_score !== null) scores.push(finding.sa_score);
        return finding;
      },
      finish: (counts): SynthesisSummary => ({ ...counts, sa_score_median: median(scores), method: METHOD }),
    };
  },
});

function roundComponents(c: Omit<SaProfile, "sa_score">): SaComponents {
  return {
    fragment_score: round(c.fragment_score, 4),
    fragments_known: round(c.fragments_known, 4),
    size_penalty: round(c.size_penalty, 4),
    stereo_penalty: round(c.stereo_penalty, 4),
    spiro_penalty: round(c.spiro_penalty, 4),
    bridgehead_penalty: round(c.bridgehead_penalty, 4),
    macrocycle_penalty: round(c.macrocycle_penalty, 4),
    symmetry_correction: round(c.symmetry_correction, 4),
    heavy_atoms: c.heavy_atoms,
    stereocentres: c.stereocentres,
    spiro_atoms: c.spiro_atoms,
    bridgehead_atoms: c.bridgehead_atoms,
    has_macrocycle: c.has_macrocycle,
    morgan_environments: c.morgan_environments,
  };
}

function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const value =
    sorted.length % 2 === 1
      ? (sorted[mid] as number)
      : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  return round(value, 3);
}

/** The per-compound part (no run state), for a worker thread (analysis-module.ts). */
function assessSynthesis(compound: ParsedCompound): SynthesisFinding {
  const base = findingBase(ID, compound);
  let profile: SaProfile;
  try {
    profile = withParentMol(compound, (mol) => saProfile(mol));
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code !== "string" || !code.startsWith("SA_")) throw error;
    const reason = `${code}: ${(error as Error).message}`;
    return { ...base, status: "not_assessed", reason, sa_score: null, sa_components: null };
  }
  const { sa_score, ...components } = profile;
  return {
    ...base,
    status: "assessed",
    reason: null,
    sa_score: round(sa_score, 3),
    sa_components: roundComponents(components),
  };
}
