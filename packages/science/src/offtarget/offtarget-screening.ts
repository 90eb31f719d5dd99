import { type CompoundFinding, findingBase, type MethodCard } from "../analysis-module.ts";
import { defineModule, type ParsedCompound } from "../define-module.ts";
import { packBits } from "../fingerprint/morgan.ts";
import { compoundOnBits } from "../fingerprint/parent-fingerprint.ts";
import { round } from "../numeric/round.ts";
import { classDomainReason } from "../parent/class-domain.ts";
import { DRUGCENTRAL_CITATION, DRUGCENTRAL_SOURCE_FILE } from "../target-risk/drugcentral-index.ts";
import { DRUGCENTRAL_TARGET_INDEX_FILE, drugCentralTargetIndex } from "./drugcentral-target-index.ts";
import { type NearDrug, transferTargets } from "./nearest-drug-targets.ts";
import { FLOOR_CHOSEN_AT, type OfftargetValidation } from "./offtarget-validation.ts";

export const OFFTARGET_SCREENING_ID = "offtarget_screening";
const ID = OFFTARGET_SCREENING_ID;

/** Targets kept per compound, and drugs named per target (the raw record and the report stay small). */
export const TOP_TARGETS = 3;
export const DRUGS_PER_TARGET = 2;
/** Targets in the one-line summary the card and report.csv show. */
const LINE_TARGETS = 3;

/** What every call of this module is, said in its key and its card: never a measured activity. */
export const HYPOTHESIS_WORDING = "targets of similar approved drugs (hypothesis)";

/** A DrugCentral drug lending its targets, with its similarity to the compound. */
export interface LendingDrug {
  readonly drug: string;
  readonly struct_id: number;
  /** Tanimoto on Morgan radius-2, 2,048-bit fingerprints of the parents, 3 decimals. */
  readonly tanimoto: number;
}

/** A target of the compound's nearest drugs, with the rule's score and the drugs carrying it. */
export interface TransferredTarget {
  readonly accession: string;
  readonly name: string;
  /** The highest Tanimoto among the nearest drugs carrying it (the ranking rule). */
  readonly score: number;
  /** How many of the nearest drugs carry it. */
  readonly supporting_drugs: number;
  /** The most similar of them ({@link DRUGS_PER_TARGET} at most). */
  readonly drugs: readonly { readonly drug: string; readonly tanimoto: number }[];
}

export interface OfftargetScreeningFinding extends CompoundFinding {
  readonly status: "assessed" | "not_assessed";
  readonly reason: string | null;
  /** A DrugCentral drug at or above the floor exists; false: out_of_domain, no target either way. */
  readonly in_domain: boolean | null;
  readonly nearest_tanimoto: number | null;
  /** The top targets in one line, "name (accession) score: drug" — a hypothesis, never an activity. */
  readonly similar_drug_targets_hypothesis: string | null;
  readonly targets: readonly TransferredTarget[] | null;
  /** The nearest drugs at or above the floor (in domain), or the single nearest (out of domain). */
  readonly neighbours: readonly LendingDrug[] | null;
}

export interface OfftargetScreeningSummary {
  readonly assessed: number;
  readonly not_assessed: number;
  readonly in_domain: number;
  readonly out_of_domain: number;
  /** Whether the held-out validation beat both baselines; false: no target is named for any compound. */
  readonly calls_shown: boolean;
  readonly floor: number;
  readonly neighbours: number;
  readonly reference_drugs: number;
  readonly reference_targets: number;
  /** Accession → compounds with it among their top targets, most frequent first (at most 20). */
  readonly top_target_counts: Readonly<Record<string, number>>;
  readonly validation: OfftargetValidation;
  readonly method: MethodCard;
}

/** The figures the card and docs/science.md quote, from the checked-in index. */
export function offtargetValidation(): OfftargetValidation {
  return drugCentralTargetIndex().file.validation;
}

const CITATIONS = [
  "Johnson & Maggiora, Concepts and Applications of Molecular Similarity, Wiley 1990 (the similarity principle)",
  "Martin, Kofron & Traphagen, J. Med. Chem. 2002, 45, 4350 (how often similar molecules share an activity)",
  "Nidhi, Glick, Davies & Jenkins, J. Chem. Inf. Model. 2006, 46, 1124 (targets predicted from annotated ligands; theirs a Bayesian model, the rule here the simpler nearest-neighbour transfer)",
  "Lounkine et al., Nature 2012, 486, 361 (drug off-targets predicted from ligand similarity, then tested; their statistic is SEA, Keiser et al. 2007, not implemented here)",
  DRUGCENTRAL_CITATION,
  "Ursu et al., Nucleic Acids Res. 2017, 45, D932 (DrugCentral: drugs, targets and approvals)",
  "Rogers & Hahn, J. Chem. Inf. Model. 2010, 50, 742 (Morgan/ECFP fingerprints)",
  "Wu et al., Chem. Sci. 2018, 9, 513 (MoleculeNet scaffold split)",
];

const atCutoff = (list: OfftargetValidation["nearest_drugs"], k: number) => list.find((s) => s.k === k);

function method(): MethodCard {
  const v = offtargetValidation();
  const { file } = drugCentralTargetIndex();
  const figures = (label: string, list: OfftargetValidation["nearest_drugs"]) =>
    `${label}: ${list.map((s) => `precision@${s.k} ${s.precision}, recall@${s.k} ${s.recall}, hit rate@${s.k} ${s.hit_rate}`).join("; ")}`;
  const mostFrequent = v.baselines.most_frequent;
  const three = atCutoff(v.nearest_drugs, FLOOR_CHOSEN_AT);
  const low = v.test_by_similarity[0];
  return {
    what:
      `Nearest-drug target transfer, worded as ${HYPOTHESIS_WORDING}: the compound's parent is compared with the ` +
      `${file.drugs.length.toLocaleString("en")} DrugCentral drugs that have a target (Tanimoto on Morgan radius-2, ` +
      `2,048-bit fingerprints of the parents); the ${v.neighbours} most similar at Tanimoto ≥ ${v.floor} lend it ` +
      `their targets (${file.targets.length.toLocaleString("en")} UniProt targets in all, not only the safety ` +
      "panel); each target is scored by the similarity of the most similar of them carrying it (ties: more " +
      `drugs carrying it), and the top ${TOP_TARGETS} are listed with those drugs and their similarity. No drug ` +
      `at Tanimoto ≥ ${v.floor}: out_of_domain, stated, and no target either way.` +
      (v.beats_baselines
        ? ""
        : " The held-out validation did not beat the baselines: no target is named for any compound."),
    citations: CITATIONS,
    data: [DRUGCENTRAL_SOURCE_FILE, DRUGCENTRAL_TARGET_INDEX_FILE],
    validation:
      `Scaffold-disjoint split of the DrugCentral drugs with a target (${v.drugs.train.toLocaleString("en")} ` +
      `train, ${v.drugs.valid} valid, ${v.drugs.test} test; ${v.test_pairs.toLocaleString("en")} known test ` +
      "(drug, target) pairs): each held-out drug's targets predicted from the train drugs alone. Floor chosen " +
      `on valid (best F1 of precision@${FLOOR_CHOSEN_AT} and recall@${FLOOR_CHOSEN_AT} on a ` +
      `${v.floor_grid[0]}–${v.floor_grid[v.floor_grid.length - 1]} grid): ${v.floor}; ${v.test_in_domain} of ` +
      `${v.drugs.test} test drugs in domain. ${figures("Test", v.nearest_drugs)}. ` +
      `${figures("The k most frequent train targets said for every drug", mostFrequent)}. ` +
      `${figures("Targets drawn at random from the train targets (expected)", v.baselines.random)}. ` +
      (v.beats_baselines
        ? "The transfer beats both baselines on every figure."
        : "The transfer does NOT beat both baselines on every figure: its calls are withheld.") +
      " Index and figures: scripts/build-drugcentral-target-index.ts, recomputed by " +
      "offtarget/offtarget-screening.validation.test.ts.",
    limits:
      `A listed target is a hypothesis to test, never a measured activity: on held-out drugs ` +
      `${three === undefined ? "" : `${((1 - three.precision) * 100).toFixed(0)}% of the top-${FLOOR_CHOSEN_AT} targets said were not among the drug's DrugCentral targets, and `}` +
      "most known targets were not found. DrugCentral's target lists are incomplete (an unlisted pair counts as " +
      "wrong) and say nothing of potency or direction. The transfer is weakest far from any drug" +
      (low === undefined || low.to === null
        ? ""
        : ` (test drugs whose nearest train drug is below ${low.to}: precision@${FLOOR_CHOSEN_AT} ${low.precision}, ` +
          `the most frequent targets ${low.most_frequent_precision})`) +
      "; each target shows its score, so a call from a distant drug reads as weak. A compound that is itself a " +
      "DrugCentral drug finds itself (Tanimoto 1) and so its own targets. Out of domain (no drug at the floor) " +
      "is no evidence of selectivity. Outside the organic classes no transfer is made.",
  };
}

/** The worker's part: the neighbour search and the compound's top targets. */
function assessOfftarget(compound: ParsedCompound): OfftargetScreeningFinding {
  const base = findingBase(ID, compound);
  const empty = {
    in_domain: false,
    nearest_tanimoto: null,
    similar_drug_targets_hypothesis: null,
    targets: null,
  };
  const outOfClass = classDomainReason(compound);
  if (outOfClass !== null)
    return { ...base, status: "assessed", reason: outOfClass, ...empty, neighbours: null };
  const { file, set, drugTargets } = drugCentralTargetIndex();
  const v = file.validation;
  const transfer = transferTargets(packBits(compoundOnBits(compound)), drugTargets, set, {
    floor: v.floor,
    neighbours: v.neighbours,
  });
  const lending = (near: NearDrug): LendingDrug => {
    const drug = file.drugs[near.index];
    return { drug: drug?.name ?? "", struct_id: drug?.struct_id ?? 0, tanimoto: round(near.tanimoto, 3) };
  };
  const nearest = transfer.nearest === null ? null : round(transfer.nearest.tanimoto, 3);
  if (transfer.neighbours.length === 0)
    return {
      ...base,
      status: "assessed",
      reason:
        `out_of_domain: no DrugCentral drug with a target is at Tanimoto ≥ ${v.floor} (nearest ${nearest ?? "none"}): ` +
        "no target either way",
      ...empty,
      nearest_tanimoto: nearest,
      neighbours: transfer.nearest === null ? [] : [lending(transfer.nearest)],
    };
  const neighbours = transfer.neighbours.map(lending);
  if (!v.beats_baselines)
    return {
      ...base,
      status: "assessed",
      reason: "calls withheld: the held-out validation did not beat the baselines (method card)",
      in_domain: true,
      nearest_tanimoto: nearest,
      similar_drug_targets_hypothesis: null,
      targets: null,
      neighbours,
    };
  const targets = transfer.targets.slice(0, TOP_TARGETS).map((t): TransferredTarget => {
    const target = file.targets[t.target];
    return {
      accession: target?.accession ?? "",
      name: target?.name ?? "",
      score: round(t.score, 3),
      supporting_drugs: t.support,
      drugs: t.drugs.slice(0, DRUGS_PER_TARGET).map((near) => {
        const { drug, tanimoto } = lending(near);
        return { drug, tanimoto };
      }),
    };
  });
  return {
    ...base,
    status: "assessed",
    reason: null,
    in_domain: true,
    nearest_tanimoto: nearest,
    similar_drug_targets_hypothesis: targets
      .slice(0, LINE_TARGETS)
      .map((t) => `${t.name} (${t.accession}) ${t.score.toFixed(2)}: ${t.drugs[0]?.drug ?? ""}`)
      .join("; "),
    targets,
    // the drugs that lent the targets are named in `targets`; the list itself is left out of an
    // in-domain record to keep the report's cards within its size bound (kept when out of domain)
    neighbours: null,
  };
}

/** Targets of the nearest DrugCentral drugs over all their targets, per compound; validated on held-out drugs. */
export const offtargetScreening = defineModule<
  OfftargetScreeningFinding,
  OfftargetScreeningFinding,
  OfftargetScreeningSummary
>({
  id: ID,
  version: "1.0.0",
  description:
    "Targets of the nearest DrugCentral drugs over all their UniProt targets (nearest-drug transfer, a " +
    "hypothesis), with the drugs lending them and their similarity; validated on scaffold-held-out drugs",
  method,
  requiredInputs: ["portfolio"],
  riskChannel: "biology",
  notAssessed: (base) => ({
    ...base,
    in_domain: null,
    nearest_tanimoto: null,
    similar_drug_targets_hypothesis: null,
    targets: null,
    neighbours: null,
  }),
  assess: assessOfftarget,
  createRun() {
    let inDomain = 0;
    let outOfDomain = 0;
    const counts = new Map<string, number>();
    return {
      merge(finding) {
        if (finding.in_domain === true) inDomain++;
        if (finding.in_domain === false) outOfDomain++;
        for (const t of finding.targets ?? []) counts.set(t.accession, (counts.get(t.accession) ?? 0) + 1);
        return finding;
      },
      finish(tally): OfftargetScreeningSummary {
        const { file } = drugCentralTargetIndex();
        const v = file.validation;
        return {
          ...tally,
          in_domain: inDomain,
          out_of_domain: outOfDomain,
          calls_shown: v.beats_baselines,
          floor: v.floor,
          neighbours: v.neighbours,
          reference_drugs: file.drugs.length,
          reference_targets: file.targets.length,
          top_target_counts: Object.fromEntries(
            [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 20),
          ),
          validation: v,
          method: method(),
        };
      },
    };
  },
});
