import { type CompoundFinding, findingBase, type MethodCard } from "../analysis-module.ts";
import { readDataFile } from "../data/read-data-file.ts";
import { defineModule, type ParsedCompound } from "../define-module.ts";
import { packBits } from "../fingerprint/morgan.ts";
import { compoundOnBits } from "../fingerprint/parent-fingerprint.ts";
import { maxTanimoto } from "../fingerprint/reference-set.ts";
import { similarityDomainReason, similarityDomainRule } from "../fingerprint/similarity-domain.ts";
import { round } from "../numeric/round.ts";
import { CLASS_DOMAIN_RULE, classDomainReason } from "../parent/class-domain.ts";
import { withParentMol } from "../parent/with-parent-mol.ts";
import type { PreparedCompound } from "../prepare-compound.ts";
import { MOLECULENET_TOX21_GRAPHCONV, TOX21_MODEL, tox21Model } from "../toxicity/tox21-model.ts";
import { gcnGraph } from "./gcn-features.ts";
import { gcnForward, gcnModel } from "./gcn-model.ts";

/** `data/tox21-gcn-figures.json`: both models' per-assay ROC-AUC on both splits, as the training wrote them. */
export interface GcnFiguresFile {
  readonly model: string;
  readonly training_data_sha256: string;
  readonly seed: number;
  readonly tasks: readonly string[];
  readonly training: { readonly seconds: number; readonly max_epochs: number; readonly patience: number };
  readonly moleculenet_graphconv_mean_test_roc_auc: number;
  readonly splits: Readonly<Record<"random" | "scaffold", SplitFigures>>;
  readonly adopted: Readonly<Record<string, "gcn" | "fingerprint_model">>;
  readonly adoption_rule: string;
}

interface ModelFigures {
  readonly valid_roc_auc: readonly number[];
  readonly test_roc_auc: readonly number[];
  readonly mean_valid_roc_auc: number;
  readonly mean_test_roc_auc: number;
}

export interface SplitFigures {
  readonly note: string;
  readonly best_epoch: number;
  readonly epochs_run: number;
  readonly counts: Readonly<
    Record<"train" | "valid" | "test", { rows: number; positives: number[]; labelled: number[] }>
  >;
  readonly gcn: ModelFigures;
  readonly fingerprint_model: ModelFigures;
}

export function readGcnFigures(): GcnFiguresFile {
  return JSON.parse(readDataFile("tox21-gcn-figures.json")) as GcnFiguresFile;
}

export interface GcnToxicityFinding extends CompoundFinding {
  readonly status: "assessed" | "not_assessed";
  readonly reason: string | null;
  readonly model: string | null;
  /** sha256 of `tox21.csv`, the data the network was trained on. */
  readonly training_data_sha256: string | null;
  /** Per Tox21 assay: the network's probability of an active call (in-vitro assay, not in-vivo toxicity). */
  readonly probabilities: Readonly<Record<string, number>> | null;
  /** Highest Tanimoto (Morgan radius 2, 2,048 bits) of the parent to the Tox21 rows the network was fitted and early-stopped on. */
  readonly max_tanimoto: number | null;
  readonly in_domain: boolean | null;
  /** The rule that decided `in_domain` (issue 24 item 1); null when not assessed. */
  readonly domain_rule: string | null;
  /**
   * Outside the organic classes or the similarity limit: why; `probabilities` is then empty and the
   * numbers are kept under raw_out_of_domain_probabilities, for audit only.
   */
  readonly domain_reason?: string;
  readonly raw_out_of_domain_probabilities?: Readonly<Record<string, number>>;
}

export interface GcnToxicitySummary {
  readonly assessed: number;
  readonly not_assessed: number;
  readonly out_of_domain: number;
  readonly model: string;
  readonly training_data_sha256: string;
  readonly validation: ReturnType<typeof gcnValidation>;
  readonly method: MethodCard;
}

const ID = "gcn_toxicity";

const CITATIONS = [
  "Kipf & Welling, ICLR 2017 (graph convolutional networks)",
  "Duvenaud et al., NeurIPS 2015 (convolutional networks on molecular graphs)",
  "Wu et al., Chem. Sci. 2018, 9, 513 (MoleculeNet: Tox21, its random and scaffold splits, GraphConv mean test ROC-AUC 0.829)",
  "Tox21 Data Challenge 2014 (NIH/NCATS, EPA, FDA): 12 nuclear-receptor and stress-response assays",
  "Kingma & Ba, ICLR 2015 (Adam)",
];

/** Per assay, which model a report should show and why, from the figures file's rule. */
function adoption(figures: GcnFiguresFile) {
  const { scaffold } = figures.splits;
  return Object.fromEntries(
    figures.tasks.map((task, t) => {
      const gcn = scaffold.gcn.valid_roc_auc[t] ?? 0;
      const fingerprint = scaffold.fingerprint_model.valid_roc_auc[t] ?? 0;
      const use = figures.adopted[task] ?? "fingerprint_model";
      return [
        task,
        {
          use: use === "gcn" ? ID : `toxicity_profile.tox21_fingerprint_model (${TOX21_MODEL})`,
          why: `scaffold-split validation ROC-AUC ${fmt(gcn)} (graph network) vs ${fmt(fingerprint)} (fingerprint model)`,
        },
      ];
    }),
  );
}

/** What the summary says of the network: both splits, beside MoleculeNet's GraphConv and the fingerprint model. */
export function gcnValidation() {
  const figures = readGcnFigures();
  const perSplit = (split: SplitFigures) => ({
    note: split.note,
    best_epoch: split.best_epoch,
    tasks: figures.tasks.map((task, t) => ({
      task,
      test_rows: split.counts.test.labelled[t],
      test_positives: split.counts.test.positives[t],
      gcn_valid_roc_auc: split.gcn.valid_roc_auc[t],
      gcn_test_roc_auc: split.gcn.test_roc_auc[t],
      fingerprint_valid_roc_auc: split.fingerprint_model.valid_roc_auc[t],
      fingerprint_test_roc_auc: split.fingerprint_model.test_roc_auc[t],
    })),
    gcn_mean_test_roc_auc: split.gcn.mean_test_roc_auc,
    fingerprint_mean_test_roc_auc: split.fingerprint_model.mean_test_roc_auc,
  });
  return {
    model: figures.model,
    seed: figures.seed,
    training_data_sha256: figures.training_data_sha256,
    random_split: perSplit(figures.splits.random),
    scaffold_split: perSplit(figures.splits.scaffold),
    moleculenet_graphconv_mean_test_roc_auc: MOLECULENET_TOX21_GRAPHCONV,
    adoption_rule: figures.adoption_rule,
    use_per_assay: adoption(figures),
  };
}

function fmt(value: number): string {
  return value.toFixed(3);
}

function methodCard(): MethodCard {
  const figures = readGcnFigures();
  const { random, scaffold } = figures.splits;
  const gcnAdopted = figures.tasks.filter((task) => figures.adopted[task] === "gcn");
  return {
    what:
      "A graph convolutional network, multi-task on the 12 Tox21 assays: per compound the probability of an " +
      "active call in each assay, from the parent's molecular graph (atoms: element, heavy-atom degree, " +
      "hydrogens, formal charge sign, aromaticity, ring membership; bonds: order or aromatic, ring membership, " +
      "as RDKit states them). Three 64-wide graph-convolution layers (sum over neighbours with bond-typed " +
      "messages), sum and max gather, a 128-wide dense layer, 12 sigmoid outputs (MoleculeNet's GraphConv " +
      "shape); trained offline with PyTorch, run here by a TypeScript forward pass over the checked-in " +
      "weights. Applicability domain: the highest Morgan radius-2 Tanimoto of the parent to the Tox21 rows " +
      "the network was fitted and early-stopped on, in domain at or above the 5th percentile of those rows' " +
      "own nearest neighbours (the fingerprint model's reference set and limit: the same rows).",
    citations: CITATIONS,
    data: ["tox21.csv", "tox21-gcn-model.json", "tox21-gcn-figures.json", "tox21-fingerprint-model.json"],
    validation:
      `Mean test ROC-AUC over the 12 assays on MoleculeNet's random 80/10/10 split: ${fmt(random.gcn.mean_test_roc_auc)} ` +
      `(fingerprint model on the same rows ${fmt(random.fingerprint_model.mean_test_roc_auc)}; MoleculeNet's ` +
      `GraphConv ${MOLECULENET_TOX21_GRAPHCONV}); on MoleculeNet's scaffold split ${fmt(scaffold.gcn.mean_test_roc_auc)} ` +
      `(fingerprint model ${fmt(scaffold.fingerprint_model.mean_test_roc_auc)}). Per assay in the summary's ` +
      "validation and docs/science.md; gnn/gcn-figures.test.ts recomputes the random-split test figures " +
      "from the checked-in weights. Run-time features equal native RDKit's (the training side) and the " +
      "TypeScript probabilities equal the Python model's within 1e-5 on 300 NCI molecules " +
      `(gnn/gcn-parity.validation.test.ts). Seed ${figures.seed}; tox21.csv sha256 ${figures.training_data_sha256}. ` +
      `Adopted per assay by scaffold-split validation ROC-AUC: the network for ${gcnAdopted.length} of 12 ` +
      `(${gcnAdopted.join(", ") || "none"}), the fingerprint model for the rest.`,
    limits:
      "In-vitro assay activity, not in-vivo toxicity. 19–118 actives per assay in a test split (random or scaffold), so per-assay " +
      "figures carry a wide interval; the scaffold split is the harder and more honest figure for new " +
      "chemotypes: there the network's mean test ROC-AUC is " +
      `${fmt(scaffold.gcn.mean_test_roc_auc)} against the fingerprint model's ${fmt(scaffold.fingerprint_model.mean_test_roc_auc)}, ` +
      "and the validation rows that choose per assay also chose the network's early-stopping epoch (and the " +
      "fingerprint model's L2). The random split is MoleculeNet's kind with our own seeded permutation, not its rows. " +
      "Features leave out chirality, hybridisation and conjugation (not in RDKit WebAssembly's JSON). Domain " +
      "(issue 24 item 1): the fingerprint model's Tox21 rows are the reference (the network was fitted on the same " +
      "compounds); a compound outside the organic classes, or failing the rule " +
      `(${similarityDomainRule(tox21Model().file.domain)}), gets no probability (probabilities empty, ` +
      "raw_out_of_domain_probabilities kept for audit only).",
  };
}

const METHOD: MethodCard = methodCard();

/** Tox21 assay probabilities from a graph convolutional network, with its applicability domain. */
export const gcnToxicity = defineModule<GcnToxicityFinding, GcnToxicityFinding, GcnToxicitySummary>({
  id: ID,
  version: "1.0.0",
  description:
    "A graph convolutional network's probabilities for the 12 Tox21 assays, with applicability domain, " +
    "the model id and its training data's sha256",
  method: METHOD,
  requiredInputs: ["portfolio"],
  riskChannel: "safety",
  notAssessed: (base) => ({
    ...base,
    model: null,
    training_data_sha256: null,
    probabilities: null,
    max_tanimoto: null,
    in_domain: null,
    domain_rule: null,
  }),
  assess: assessGcn,
  createRun() {
    let outOfDomain = 0;
    return {
      merge(finding) {
        if (finding.in_domain === false) outOfDomain++;
        return finding;
      },
      finish(counts): GcnToxicitySummary {
        const { file } = gcnModel();
        return {
          ...counts,
          out_of_domain: outOfDomain,
          model: file.model,
          training_data_sha256: file.training_data_sha256,
          validation: gcnValidation(),
          method: METHOD,
        };
      },
    };
  },
});

/** The network's raw probabilities of a parsed compound's parent (unrounded; the parity test reads these). */
export function gcnProbabilities(compound: PreparedCompound & { ok: true }): number[] {
  return withParentMol(compound, (mol) => gcnForward(gcnModel(), gcnGraph(mol)));
}

/** The per-compound part (no run state), for a worker thread. */
function assessGcn(compound: ParsedCompound): GcnToxicityFinding {
  const { file } = gcnModel();
  const values = gcnProbabilities(compound);
  const probabilities = Object.fromEntries(file.tasks.map((task, t) => [task, round(values[t] ?? 0, 6)]));
  const reference = tox21Model();
  const similarity = maxTanimoto(packBits(compoundOnBits(compound)), reference.training);
  const base = {
    ...findingBase(ID, compound),
    status: "assessed" as const,
    reason: null,
    model: file.model,
    training_data_sha256: file.training_data_sha256,
    max_tanimoto: round(similarity, 3),
  };
  const classReason = classDomainReason(compound);
  const inDomain = similarity >= reference.file.domain.min_tanimoto;
  const rule = similarityDomainRule(reference.file.domain);
  const reason = classReason ?? similarityDomainReason(similarity, reference.file.domain, !inDomain);
  if (reason !== null)
    return {
      ...base,
      status: "assessed",
      reason,
      probabilities: {},
      in_domain: false,
      domain_rule: classReason === null ? rule : CLASS_DOMAIN_RULE,
      domain_reason: reason,
      raw_out_of_domain_probabilities: probabilities,
    };
  return { ...base, probabilities, in_domain: true, domain_rule: rule };
}
