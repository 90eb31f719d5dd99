import { matchedQedAlerts } from "../admet/qed.ts";
import {
  type AnalysisModule,
  type CompoundFinding,
  findingBase,
  type MethodCard,
  unparseableFinding,
} from "../analysis-module.ts";
import { withParentMol } from "../parent/with-parent-mol.ts";
import type { PreparedCompound } from "../prepare-compound.ts";
import { findStructuralAlerts, type StructuralAlerts } from "./structural-alerts.ts";

export interface ToxicityProfileFinding extends CompoundFinding {
  readonly status: "assessed" | "not_assessed";
  readonly reason: string | null;
  readonly pains: StructuralAlerts["pains"] | null;
  /** Brenk alerts are not available in this build (see the summary's `brenk`). */
  readonly brenk: null;
  readonly nibr: StructuralAlerts["nibr"] | null;
  readonly alert_atoms: StructuralAlerts["alert_atoms"] | null;
  /** SMARTS of QED's unwanted-group alerts present (Bickerton 2012, the 116 of RDKit's QED). */
  readonly qed_alerts: readonly string[] | null;
}

export interface ToxicityProfileSummary {
  readonly assessed: number;
  readonly not_assessed: number;
  readonly with_pains: number;
  readonly with_nibr_exclude: number;
  readonly with_nibr_covalent: number;
  /** Alert name → number of compounds carrying it, most frequent first. */
  readonly alert_counts: Readonly<Record<string, number>>;
  readonly brenk: { readonly status: "not_available"; readonly reason: string };
  readonly method: MethodCard;
}

const ID = "toxicity_profile";

const BRENK_NOT_AVAILABLE =
  "Brenk et al. (ChemMedChem 2008, 3, 435) SMARTS are compiled into RDKit's FilterCatalog but no data file " +
  "of them is available offline here (Debian rdkit-data ships none); they need the paper's supplementary " +
  "table converted with citation.";

const METHOD: MethodCard = {
  what:
    "Structural alerts on the parent, reported as alerts and never as a toxicity prediction: the 480 PAINS " +
    "patterns (families A/B/C) for assay interference, and the 444 NIBR hit-triage filters with their " +
    "severity (EXCLUDE, FLAG, ANNOTATION) and covalent flag, and QED's 116 unwanted-group alerts. Atom " +
    "indices of each PAINS and NIBR alert are given for highlighted depictions.",
  citations: [
    "Baell & Holloway, J. Med. Chem. 2010, 53, 2719 (PAINS)",
    "Saubern, Guha & Baell, Mol. Inf. 2011, 30, 847 (PAINS as SMARTS)",
    "Schuffenhauer et al., J. Med. Chem. 2020, 63, 14425 (NIBR filters)",
    "Bickerton et al., Nat. Chem. 2012, 4, 90 (QED's unwanted-group alerts)",
  ],
  data: ["wehi-pains.csv", "nibr-substructure-filters.csv", "qed-bickerton-2012.json"],
  validation:
    "Per-molecule hit sets against native RDKit 2022.09 (FilterCatalog PAINS; a FilterCatalog of the NIBR " +
    "SMARTS with MIN_COUNT as the NIBR script builds it) on every 4th NCI first_5K molecule: PAINS identical " +
    "1,247/1,247, NIBR identical 1,244/1,247 (test: toxicity/structural-alerts.test.ts); the number of QED " +
    "alerts equals native rdkit.Chem.QED's ALERTS on 4,989/4,989 NCI molecules (admet/qed.test.ts).",
  limits:
    "An alert is a substructure, not a measured liability: PAINS flag frequent hitters in AlphaScreen-type " +
    "assays; Brenk alerts on Tox21 had odds ratios of 1.1–1.7 (science review), so no risk number is derived. " +
    `Brenk: not available. ${BRENK_NOT_AVAILABLE}`,
};

/** PAINS and NIBR structural alerts of each parsed compound's parent. */
export const toxicityProfile: AnalysisModule<ToxicityProfileFinding, ToxicityProfileSummary> = {
  id: ID,
  version: "1.0.0",
  description:
    "Structural alerts (PAINS A/B/C, NIBR filters with severities) on the parent; alerts, not predictions",
  method: METHOD,
  requiredInputs: ["portfolio"],
  riskChannel: "safety",
  assess: assessToxicity,
  createAnalyzer() {
    let assessed = 0;
    let notAssessed = 0;
    let withPains = 0;
    let withExclude = 0;
    let withCovalent = 0;
    const counts = new Map<string, number>();
    const merge = (finding: ToxicityProfileFinding): ToxicityProfileFinding => {
      const { pains, nibr } = finding;
      if (pains === null || nibr === null) {
        notAssessed++;
        return finding;
      }
      assessed++;
      if (pains.length > 0) withPains++;
      if (nibr.some((hit) => hit.severity === "EXCLUDE")) withExclude++;
      if (nibr.some((hit) => hit.covalent)) withCovalent++;
      for (const name of [...pains, ...nibr.map((hit) => hit.name)])
        counts.set(name, (counts.get(name) ?? 0) + 1);
      return finding;
    };
    return {
      analyze: (compound: PreparedCompound) => merge(assessToxicity(compound)),
      merge,
      finish(): ToxicityProfileSummary {
        return {
          assessed,
          not_assessed: notAssessed,
          with_pains: withPains,
          with_nibr_exclude: withExclude,
          with_nibr_covalent: withCovalent,
          alert_counts: Object.fromEntries([...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))),
          brenk: { status: "not_available", reason: BRENK_NOT_AVAILABLE },
          method: METHOD,
        };
      },
    };
  },
};

/** The per-compound part (no run state), for a worker thread. */
function assessToxicity(compound: PreparedCompound): ToxicityProfileFinding {
  if (!compound.ok) {
    return {
      ...unparseableFinding(ID, compound),
      pains: null,
      brenk: null,
      nibr: null,
      alert_atoms: null,
      qed_alerts: null,
    };
  }
  const base = findingBase(ID, compound);
  const { alerts, qedAlerts } = withParentMol(compound, (mol, rdkit) => ({
    alerts: findStructuralAlerts(rdkit, mol),
    qedAlerts: matchedQedAlerts(rdkit, mol),
  }));
  return { ...base, status: "assessed", reason: null, ...alerts, brenk: null, qed_alerts: qedAlerts };
}
