import { readDataFile } from "../data/read-data-file.ts";
import {
  type FingerprintModelFile,
  type LoadedFingerprintModel,
  loadFingerprintModel,
  predictTasks,
} from "../fingerprint/fingerprint-model-file.ts";
import { packBits } from "../fingerprint/morgan.ts";
import { maxTanimoto } from "../fingerprint/reference-set.ts";
import { similarityDomainRule } from "../fingerprint/similarity-domain.ts";
import { round } from "../numeric/round.ts";

/** Named in every output: a fingerprint model, not the graph convolution `gcn_toxicity` stands for. */
export const TOX21_MODEL = "tox21_logreg_morgan2";
/** Wu et al., Chem. Sci. 2018, 9, 513: graph convolution on Tox21, random split, mean test ROC-AUC 0.829 ± 0.006. */
export const MOLECULENET_TOX21_GRAPHCONV = 0.829;

export const TOX21_CITATIONS = [
  "Tox21 Data Challenge 2014 (NIH/NCATS, EPA, FDA): 12 nuclear-receptor and stress-response assays",
  "Wu et al., Chem. Sci. 2018, 9, 513 (MoleculeNet: the Tox21 distribution, its random split, graph convolution mean test ROC-AUC 0.829)",
  "Rogers & Hahn, J. Chem. Inf. Model. 2010, 50, 742 (Morgan/ECFP fingerprints)",
  "le Cessie & van Houwelingen, Appl. Stat. 1992, 41, 191 (L2-penalised logistic regression)",
];

export interface Tox21Prediction {
  readonly model: typeof TOX21_MODEL;
  /** Per assay: the model's probability of an active call, not a measured outcome. */
  readonly probabilities: Readonly<Record<string, number>>;
  /** Highest Tanimoto to the rows the models were fitted on. */
  readonly max_tanimoto: number;
  readonly in_domain: boolean;
  /** The rule that decided `in_domain`, from the model's own training rows (issue 24 item 1). */
  readonly domain_rule: string;
  /**
   * Only out of the domain (outside the organic classes, issue 24 item 2, or the similarity limit,
   * item 1): why; `probabilities` is then empty and the model's numbers are kept here for audit,
   * not as findings.
   */
  readonly status?: "out_of_domain";
  readonly domain_reason?: string;
  readonly raw_out_of_domain_probabilities?: Readonly<Record<string, number>>;
}

let cached: LoadedFingerprintModel | null = null;

export function readTox21ModelFile(): FingerprintModelFile {
  return JSON.parse(readDataFile("tox21-fingerprint-model.json")) as FingerprintModelFile;
}

export function tox21Model(): LoadedFingerprintModel {
  cached ??= loadFingerprintModel(readTox21ModelFile());
  return cached;
}

/** The 12 assay probabilities of a parent's Morgan on-bits, with the applicability domain. */
export function predictTox21(onBits: readonly number[]): Tox21Prediction {
  const { file, training } = tox21Model();
  const similarity = maxTanimoto(packBits(onBits), training);
  const probabilities = predictTasks(file, onBits);
  return {
    model: TOX21_MODEL,
    probabilities: Object.fromEntries(Object.entries(probabilities).map(([k, v]) => [k, round(v, 3)])),
    max_tanimoto: round(similarity, 3),
    in_domain: similarity >= file.domain.min_tanimoto,
    domain_rule: similarityDomainRule(file.domain),
  };
}

/** What the toxicity_profile summary says of the Tox21 model: held-out figures beside MoleculeNet's. */
export function tox21Validation() {
  const { file } = tox21Model();
  return {
    model: TOX21_MODEL,
    what:
      "L2 logistic regression per Tox21 assay on Morgan radius-2, 2,048-bit fingerprints of the parent; a " +
      "fingerprint model under its own name, not the graph convolution gcn_toxicity stands for",
    split: `random 80/10/10, seed ${file.seed} (${file.split.note})`,
    tasks: file.tasks.map((t) => ({
      task: t.name,
      test_roc_auc: t.test_roc_auc,
      test_rows: t.n_test,
      test_positives: t.test_positives,
    })),
    mean_test_roc_auc: file.mean_test_roc_auc,
    moleculenet_graphconv_mean_test_roc_auc: MOLECULENET_TOX21_GRAPHCONV,
    moleculenet_note: "MoleculeNet publishes the mean over the 12 assays, not per-assay figures",
    domain_min_tanimoto: file.domain.min_tanimoto,
    citations: TOX21_CITATIONS,
  };
}
