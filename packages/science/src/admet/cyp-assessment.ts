import { type CompoundFinding, findingBase, type MethodCard } from "../analysis-module.ts";
import { defineModule, type ParsedCompound } from "../define-module.ts";
import { CLASSIFIER_CALL_RULE } from "../uncertainty/classifier-call.ts";
import { DOMAIN_FLOOR_RULE } from "./domain-floor.ts";
import { reportedPerCompound, reportingDecision, SKILL_MARGIN_RULE } from "./skill-margin.ts";
import { classifyCompound, type Gated, tdcInputs } from "./tdc-compound.ts";
import { ADMET_AI_SPLIT, CYP_DATASETS } from "./tdc-datasets.ts";
import { TDC_DOMAIN_FILE, tdcDomainText } from "./tdc-domain-file.ts";
import { type TdcClassification, tdcModel, tdcModelFileName, tdcValidation } from "./tdc-model.ts";

export type CypIsoform = "CYP1A2" | "CYP2C9" | "CYP2C19" | "CYP2D6" | "CYP3A4";

const ISOFORMS: readonly { readonly isoform: CypIsoform; readonly key: string }[] = CYP_DATASETS.map((d) => ({
  isoform: d.key.toUpperCase() as CypIsoform,
  key: d.key,
}));

/** The isoforms shown per compound: those whose model clears the skill margin (issue 36 item 6). */
const reportedIsoforms = () => ISOFORMS.filter((i) => reportedPerCompound(tdcModel(i.key).file));

export interface CypFinding extends CompoundFinding {
  readonly status: "assessed" | "not_assessed";
  readonly reason: string | null;
  /**
   * Per isoform: calibrated inhibition probability, conformal set, domain, model id, training sha256.
   * An isoform whose model is below the skill margin is absent (the summary's validation says why).
   */
  readonly isoforms: Readonly<Partial<Record<CypIsoform, Gated<TdcClassification>>>> | null;
  /** Isoforms called inhibitors (call "positive", uncertainty/classifier-call.ts) inside their model's domain. */
  readonly flagged: readonly CypIsoform[] | null;
  /**
   * Isoforms whose call is "uncertain" inside their model's domain: probability and conformal set do not
   * agree on one label (issue 36 item 4; replaces `confident_inhibition`, which could contradict the call).
   */
  readonly uncertain: readonly CypIsoform[] | null;
}

export interface CypSummary {
  readonly assessed: number;
  readonly not_assessed: number;
  /** Isoform → compounds flagged. */
  readonly flagged: Readonly<Record<CypIsoform, number>>;
  readonly validation: Readonly<Record<CypIsoform, ReturnType<typeof tdcValidation>>>;
  readonly method: MethodCard;
}

const ID = "cyp_assessment";

let card: MethodCard | null = null;

/** Built on first use from the model files, so the card states the checked-in figures. */
function method(): MethodCard {
  if (card !== null) return card;
  const figures = CYP_DATASETS.map((d) => {
    const { file } = tdcModel(d.key);
    const t = file.test.model as { auroc: number; auprc: number; mcc: number; ece: number };
    const s = file.test.simple as { auroc: number };
    return (
      `${d.key.toUpperCase()} ${reportingDecision(file)}; AUROC ${t.auroc} (AUPRC ${t.auprc}, MCC ${t.mcc}, ECE ${t.ece}; logistic baseline ${s.auroc}; ` +
      `ADMET-AI (random split) ${d.admet_ai?.value}; conformal coverage ${file.test.conformal_coverage} on ${file.test.rows} test compounds)`
    );
  });
  card = {
    what:
      "Inhibition of the five drug-metabolising cytochromes P450 (1A2, 2C9, 2C19, 2D6, 3A4) per compound: a " +
      "Platt-calibrated probability, a label-conditional (Mondrian) split-conformal prediction set at 90%, one call " +
      `(${CLASSIFIER_CALL_RULE}), the applicability domain (in_domain with its domain_rule: max Tanimoto to the isoform's training ` +
      "compounds against the isoform's floor, where its scaffold-test AUROC falls, issue 36 item 5), the model id and the training file's sha256. " +
      "Out of an isoform model's domain (or outside the organic classes) the output is status out_of_domain with " +
      "no probability, the model's output kept under raw_out_of_domain for audit only. `flagged` names the " +
      `isoforms called inhibitors in domain, \`uncertain\` those whose call is uncertain. An isoform is ${SKILL_MARGIN_RULE} (issue 36 item 6). ` +
      "Each model is the better on valid of a one-hidden-layer network and an L2 logistic regression on the " +
      "parent's Morgan bits and 42 RDKit 2D descriptors, trained on Veith et al.'s PubChem qHTS data as TDC distributes it.",
    citations: [
      "Veith et al., Nat. Biotechnol. 2009, 27, 1050 (CYP inhibition qHTS, PubChem AID 1851)",
      "Huang et al., NeurIPS Datasets and Benchmarks 2021 (Therapeutics Data Commons; CC BY 4.0)",
      "Swanson et al., Bioinformatics 2024, 40, btae416 (ADMET-AI: the published TDC figures compared with)",
      "Yang et al., J. Chem. Inf. Model. 2019, 59, 3370 (balanced scaffold split); Bemis & Murcko, J. Med. Chem. 1996, 39, 2887",
      "Rogers & Hahn, J. Chem. Inf. Model. 2010, 50, 742 (Morgan fingerprints)",
      "Platt 1999, Advances in Large Margin Classifiers (Platt scaling)",
      "Vovk, Gammerman & Shafer, Algorithmic Learning in a Random World, 2005 (label-conditional conformal prediction)",
    ],
    data: [...CYP_DATASETS.flatMap((d) => [d.file, tdcModelFileName(d.key)]), TDC_DOMAIN_FILE],
    validation:
      `On a seeded balanced scaffold split of the deduplicated parents (70/10/20; TDC's method, not TDC's rows), ` +
      `test figures: ${figures.join("; ")}. Recomputed from the SMILES and the checked-in weights by ` +
      "admet/tdc-models.validation.test.ts.",
    limits:
      "The training files are 90% of TDC's (a tenth is held back by the project's owners). " +
      `${ADMET_AI_SPLIT}. ` +
      "A qHTS luminescence assay at one substrate per isoform: inhibition of another substrate or time-dependent " +
      `inhibition is not covered. Domain floors (${DOMAIN_FLOOR_RULE}; data/tdc-domain-floors.json): ` +
      `${CYP_DATASETS.map((d) => tdcDomainText(d.key)).join("; ")}.`,
  };
  return card;
}

const emptyFlags = (): Record<CypIsoform, number> =>
  Object.fromEntries(ISOFORMS.map((i) => [i.isoform, 0])) as Record<CypIsoform, number>;

export const cypAssessment = defineModule<CypFinding, CypFinding, CypSummary>({
  id: ID,
  version: "1.0.0",
  description:
    "CYP1A2/2C9/2C19/2D6/3A4 inhibition probabilities with conformal sets and domain (TDC Veith models)",
  method,
  requiredInputs: ["portfolio"],
  riskChannel: "safety",
  notAssessed: (base) => ({ ...base, isoforms: null, flagged: null, uncertain: null }),
  assess: assessCyp,
  createRun() {
    const flagged = emptyFlags();
    return {
      merge(finding) {
        for (const i of finding.flagged ?? []) flagged[i]++;
        return finding;
      },
      finish: (counts) => ({
        ...counts,
        flagged: { ...flagged },
        validation: Object.fromEntries(
          CYP_DATASETS.map((d) => [d.key.toUpperCase(), tdcValidation(d)]),
        ) as CypSummary["validation"],
        method: method(),
      }),
    };
  },
});

function assessCyp(compound: ParsedCompound): CypFinding {
  const inputs = tdcInputs(compound);
  const reported = reportedIsoforms();
  const isoforms: Partial<Record<CypIsoform, Gated<TdcClassification>>> = Object.fromEntries(
    reported.map((i) => [i.isoform, classifyCompound(i.key, compound, inputs)]),
  );
  const called = (pick: (o: TdcClassification) => boolean) =>
    reported
      .filter((i) => {
        const o = isoforms[i.isoform];
        return o !== undefined && "probability" in o && o.in_domain && pick(o);
      })
      .map((i) => i.isoform);
  return {
    ...findingBase(ID, compound),
    status: "assessed",
    reason: null,
    isoforms,
    flagged: called((o) => o.call === "positive"),
    uncertain: called((o) => o.call === "uncertain"),
  };
}
