import type { MethodCard } from "../analysis-module.ts";
import { defineModule } from "../define-module.ts";
import { type ActivityCliff, activityCliffs } from "./activity-cliffs.ts";
import {
  MAX_PAIRS,
  type MatchedPair,
  matchedPairs,
  type TransformationStats,
  transformationStats,
} from "./matched-pairs.ts";
import {
  activitiesOf,
  assessSar,
  MAX_CUT_BONDS,
  SAR_ID,
  type SarAssessment,
  type SarFinding,
} from "./sar-assessment.ts";
import type { SarCompound } from "./sar-compound.ts";
import { type ScaffoldSeries, SeriesTally } from "./scaffold-series.ts";

/**
 * Compounds with activities kept for pairing (matched pairs, SALI), the first ones in portfolio
 * order: pairing is quadratic in compounds per assay, so this bounds memory (fingerprint and cuts
 * of each, about 5 kB) and time (2,000 compounds: 2.0 million pairs per assay).
 */
export const PAIRING_CAP = 2_000;
/** Entries shown per list in the raw output; the count of the rest is stated. */
export const SHOWN = { series: 25, pairs: 50, transformations: 25, cliffs: 25 } as const;
const ACYCLIC = "(no ring)";

export interface AssayPairs {
  readonly assay_id: string;
  readonly compounds_measured: number;
  readonly matched_pairs: {
    readonly total: number;
    /** MAX_PAIRS when the assay had more distinct pairs than that (the rest were not formed), else null. */
    readonly truncated_at: number | null;
    readonly top: readonly MatchedPair[];
    readonly more: number;
  };
  readonly transformations: {
    readonly total: number;
    readonly top: readonly TransformationStats[];
    readonly more: number;
  };
  readonly activity_cliffs: {
    readonly pairs_scored: number;
    readonly top: readonly ActivityCliff[];
    readonly identical_fingerprint_pairs: readonly ActivityCliff[];
  };
}

export interface SarSummary {
  readonly compounds: number;
  readonly not_assessed: number;
  readonly with_activities: number;
  readonly assays: readonly string[];
  readonly pairing: {
    readonly cap: number;
    readonly considered: number;
    readonly left_out: number;
    /** Considered compounds whose cuttable bonds exceed MAX_CUT_BONDS (no matched pairs). */
    readonly no_cuts: number;
  };
  readonly scaffold_series: {
    readonly total: number;
    readonly top: readonly ScaffoldSeries[];
    readonly more: number;
  };
  readonly per_assay: readonly AssayPairs[];
  readonly r_groups: { readonly status: "not_available"; readonly reason: string };
  readonly method: MethodCard;
}

const R_GROUPS_REASON =
  "R-group tables with RDKit's get_rgd need every member of a series decomposed together in one RDKit " +
  "instance, so that R1, R2 … mean the same core positions across members; per-compound work runs in " +
  "worker threads and the portfolio step has no RDKit, so no R-group table is given. The matched pairs " +
  "carry the same information per substitution (context and the swapped parts).";

const METHOD: MethodCard = {
  what:
    "Portfolio-level structure–activity relationships from the staged assays: each compound's Bemis–Murcko " +
    "scaffold (ring systems and linkers) and the series sharing one, with the activity range per assay; " +
    "matched molecular pairs (two compounds differing by one substituent at one acyclic single bond, from " +
    "RDKit's MMPA fragmenter) with the activity change and the transformations seen more than once; and " +
    "activity cliffs ranked by SALI, the activity difference divided by (1 − Tanimoto) on Morgan radius-2 " +
    "fingerprints. Activities are p values (−log10 molar), higher is more active.",
  citations: [
    "Bemis & Murcko, J. Med. Chem. 1996, 39, 2887 (molecular frameworks)",
    "Hussain & Rea, J. Chem. Inf. Model. 2010, 50, 339 (matched molecular pairs by fragment indexing)",
    "Guha & Van Drie, J. Chem. Inf. Model. 2008, 48, 646 (structure–activity landscape index, SALI)",
    "Rogers & Hahn, J. Chem. Inf. Model. 2010, 50, 742 (Morgan/ECFP fingerprints)",
  ],
  data: [],
  validation:
    "Murcko scaffolds identical to native RDKit 2022.09 MurckoScaffold.MurckoScaffoldSmiles on 4,988 of the " +
    "4,989 NCI first_5K molecules both toolkits parse (99.98%; the one difference, NCI-4252, is an aromatic " +
    "carbanion whose hydrogen count RDKit derives from aromatic bond valences). Single cuts identical to " +
    "native rdMMPA.FragmentMol(maxCuts=1) and SALI equal to a native script on CHEMBL2321810 compounds " +
    "(tests: scaffold/murcko-scaffold.validation.test.ts, sar/sar-explorer.validation.test.ts).",
  limits:
    `Pairs are formed among the first ${PAIRING_CAP.toLocaleString("en")} compounds with activities ` +
    "(portfolio order); the rest get scaffolds and series counts but no pairs (stated in the output). " +
    "The changing part of a pair is never larger than the part kept; at most " +
    `${MAX_PAIRS.toLocaleString("en")} distinct pairs are formed per assay (truncated_at says when). ` +
    `Single cuts only, no hydrogen-to-substituent pairs; a molecule with more than ${MAX_CUT_BONDS} cuttable ` +
    "bonds gives no pairs (RDKit's default). SALI is undefined for identical fingerprints (listed " +
    "separately) and grows without bound as similarity nears 1, so it ranks pairs, it is not a scale. " +
    "Activities from different assays are never compared with each other. Scaffolds keep atom and bond " +
    "types (not generic frameworks) and drop stereochemistry. " +
    R_GROUPS_REASON,
};

/** Scaffold series, matched pairs and activity cliffs over the staged assays (issue 11). */
export const sarExplorer = defineModule<SarFinding, SarAssessment, SarSummary>({
  id: SAR_ID,
  version: "1.0.0",
  description:
    "Murcko scaffold series, matched molecular pairs and SALI activity cliffs over the staged assay values",
  method: METHOD,
  requiredInputs: ["portfolio", "assays"],
  riskChannel: "cross_cutting",
  notAssessed: (base, compound) => ({ ...base, murcko_scaffold: null, activities: activitiesOf(compound) }),
  assess: assessSar,
  createRun() {
    const series = new SeriesTally();
    const pairing: SarCompound[] = [];
    const assays: string[] = [];
    let withActivities = 0;
    let leftOut = 0;
    const tally = (finding: SarFinding): SarFinding => {
      if (finding.activities !== null) {
        withActivities++;
        for (const assay of Object.keys(finding.activities)) if (!assays.includes(assay)) assays.push(assay);
      }
      return finding;
    };
    return {
      merge({ finding, pairing: measured }) {
        tally(finding);
        if (finding.status === "assessed")
          series.add(
            finding.murcko_scaffold ?? ACYCLIC,
            finding.candidate_id,
            finding.activities ?? undefined,
          );
        if (measured !== null) {
          if (pairing.length < PAIRING_CAP) pairing.push(measured);
          else leftOut++;
        }
        return finding;
      },
      notAssessed: tally,
      finish(counts): SarSummary {
        const ranked = series.ranked();
        return {
          compounds: counts.assessed + counts.not_assessed,
          not_assessed: counts.not_assessed,
          with_activities: withActivities,
          assays,
          pairing: {
            cap: PAIRING_CAP,
            considered: pairing.length,
            left_out: leftOut,
            no_cuts: pairing.filter((c) => c.cuts.length === 0).length,
          },
          scaffold_series: {
            total: ranked.length,
            top: ranked.slice(0, SHOWN.series),
            more: Math.max(0, ranked.length - SHOWN.series),
          },
          per_assay: assays.map((assay) => assayPairs(pairing, assay)),
          r_groups: { status: "not_available", reason: R_GROUPS_REASON },
          method: METHOD,
        };
      },
    };
  },
});

function assayPairs(compounds: readonly SarCompound[], assay: string): AssayPairs {
  const { pairs, truncated } = matchedPairs(compounds, assay);
  const transformations = transformationStats(pairs);
  const cliffs = activityCliffs(compounds, assay, SHOWN.cliffs);
  return {
    assay_id: assay,
    compounds_measured: compounds.filter((c) => c.activities[assay] !== undefined).length,
    matched_pairs: {
      total: pairs.length,
      truncated_at: truncated ? MAX_PAIRS : null,
      top: pairs.slice(0, SHOWN.pairs),
      more: Math.max(0, pairs.length - SHOWN.pairs),
    },
    transformations: {
      total: transformations.length,
      top: transformations.slice(0, SHOWN.transformations),
      more: Math.max(0, transformations.length - SHOWN.transformations),
    },
    activity_cliffs: {
      pairs_scored: cliffs.pairs_scored,
      top: cliffs.top,
      identical_fingerprint_pairs: cliffs.identical_fingerprint_pairs,
    },
  };
}
