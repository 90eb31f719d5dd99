import {
  type AnalysisModule,
  type CompoundFinding,
  findingBase,
  type MethodCard,
  unparseableFinding,
} from "../analysis-module.ts";
import { withParentMol } from "../parent/with-parent-mol.ts";
import type { PreparedCompound } from "../prepare-compound.ts";
import { predictParentSolubility } from "../solubility/solubility-models.ts";
import { admetDescriptors } from "./admet-descriptors.ts";
import { type BioavailabilityRadar, bioavailabilityRadar } from "./bioavailability-radar.ts";
import { abbottScore, isAnionic } from "./bioavailability-score.ts";
import { type BoiledEggCall, boiledEgg } from "./boiled-egg.ts";
import { evaluateDrugLikeness, type RuleName, type RuleVerdict } from "./drug-likeness-rules.ts";
import { computeQed, qedProperties } from "./qed.ts";
import { logKpCmPerS } from "./skin-permeation.ts";

export interface AdmetFinding extends CompoundFinding {
  readonly status: "assessed" | "not_assessed";
  readonly reason: string | null;
  readonly qed: number | null;
  readonly wlogp: number | null;
  readonly tpsa: number | null;
  readonly mw: number | null;
  readonly hbd: number | null;
  readonly hba: number | null;
  readonly rotatable_bonds: number | null;
  readonly fsp3: number | null;
  readonly heavy_atoms: number | null;
  readonly boiled_egg: BoiledEggCall | null;
  readonly rules: Readonly<Record<RuleName, RuleVerdict>> | null;
  readonly bioavailability_score: 0.11 | 0.17 | 0.55 | 0.56 | 0.85 | null;
  readonly log_kp_cm_s: number | null;
  readonly radar: BioavailabilityRadar | null;
}

export interface AdmetSummary {
  readonly assessed: number;
  readonly not_assessed: number;
  readonly gi_absorption_high: number;
  readonly bbb_permeant: number;
  readonly rule_passes: Readonly<Record<string, number>>;
  readonly mean_qed: number | null;
  /** BOILED-Egg brain-access calls scored against BBBP's labels (see the method card). */
  readonly bbbp_validation: typeof BBBP_VALIDATION;
  readonly method: MethodCard;
}

/**
 * The yolk's calls on BBBP (Martins et al. 2012, 2,039 compounds; parents as molecular_logic
 * chooses them). Recomputed and compared by admet/boiled-egg.test.ts, so these figures cannot drift.
 */
export const BBBP_VALIDATION = {
  dataset: "bbbp.csv (Martins et al., J. Chem. Inf. Model. 2012, 52, 1686; MoleculeNet)",
  compounds: 2039,
  scored: 2039,
  accuracy: 0.717,
  mcc: 0.409,
} as const;

const ID = "admet_predictions";

const METHOD: MethodCard = {
  what:
    "SwissADME-style physicochemistry and rules for the parent: QED (mean weights), WLOGP, TPSA, MW, Lipinski " +
    "HBD/HBA, rotatable bonds, Fsp3; BOILED-Egg GI absorption and brain access; Lipinski, Ghose, Veber, Egan, " +
    "Muegge and lead-likeness verdicts with each broken limit as text; the Abbott bioavailability score; skin " +
    "permeability log Kp; the six-axis bioavailability radar.",
  citations: [
    "Bickerton et al., Nat. Chem. 2012, 4, 90 (QED)",
    "Wildman & Crippen, J. Chem. Inf. Comput. Sci. 1999, 39, 868 (WLOGP, MR)",
    "Ertl, Rohde & Selzer, J. Med. Chem. 2000, 43, 3714 (TPSA)",
    "Daina & Zoete, ChemMedChem 2016, 11, 1117 (BOILED-Egg)",
    "Lipinski et al. 1997; Ghose et al. 1999; Veber et al. 2002; Egan et al. 2000; Muegge et al. 2001; Teague et al. 1999",
    "Martin, J. Med. Chem. 2005, 48, 3164 (Abbott bioavailability score)",
    "Potts & Guy, Pharm. Res. 1992, 9, 663 (log Kp)",
    "Daina, Michielin & Zoete, Sci. Rep. 2017, 7, 42717 (SwissADME rules, radar)",
  ],
  data: ["qed-bickerton-2012.json", "bbbp.csv"],
  validation:
    "QED within 1e-6 of native rdkit.Chem.QED on 4,989/4,989 NCI first_5K molecules; every rule verdict, " +
    "BOILED-Egg call and Abbott score equal to an independent native-RDKit script using the same limits on NCI " +
    `first_5K; BOILED-Egg brain access vs BBBP labels: accuracy ${BBBP_VALIDATION.accuracy}, MCC ${BBBP_VALIDATION.mcc} ` +
    `on ${BBBP_VALIDATION.scored} compounds. Tests: admet/*.test.ts.`,
  limits:
    "WLOGP stands in for XLOGP3/MLOGP/CLOGP wherever the original rule or SwissADME used them; TPSA has no S/P " +
    "contributions (RDKit default), BOILED-Egg was fitted with them; Egan is applied as the limits of its " +
    "99% ellipse, a box (WLOGP ≤ 5.88, TPSA ≤ 131.6): the ellipse's centre and axes (Egan, Merz & Baldwin 2000) " +
    "are not in any source available offline, and the egg replaces the box only once they are checked in with " +
    "the paper's own worked values to test against; the radar's INSOLU axis uses the " +
    "solubility_assessment model, not SwissADME's ESOL. No P-gp or CYP calls (not reproducible offline).",
};

function round(value: number, digits = 3): number {
  const f = 10 ** digits;
  const r = Math.round(value * f) / f;
  return Object.is(r, -0) ? 0 : r;
}

const EMPTY = {
  qed: null,
  wlogp: null,
  tpsa: null,
  mw: null,
  hbd: null,
  hba: null,
  rotatable_bonds: null,
  fsp3: null,
  heavy_atoms: null,
  boiled_egg: null,
  rules: null,
  bioavailability_score: null,
  log_kp_cm_s: null,
  radar: null,
} as const;

/** ADMET physicochemistry, rules and BOILED-Egg of each parsed compound's parent. */
export const admetPredictions: AnalysisModule<AdmetFinding, AdmetSummary, AdmetAssessment> = {
  id: ID,
  version: "1.0.0",
  description:
    "QED, BOILED-Egg, six drug-likeness rule sets, Abbott score, log Kp and radar (SwissADME-style)",
  method: METHOD,
  requiredInputs: ["portfolio"],
  riskChannel: "chemistry",
  assess: assessAdmet,
  createAnalyzer() {
    let assessed = 0;
    let notAssessed = 0;
    let gi = 0;
    let bbb = 0;
    let qedSum = 0;
    const passes: Record<string, number> = {};
    const merge = ({ finding, qed }: AdmetAssessment): AdmetFinding => {
      const { boiled_egg: egg, rules } = finding;
      if (qed === null || egg === null || rules === null) {
        notAssessed++;
        return finding;
      }
      assessed++;
      qedSum += qed;
      if (egg.gi_absorption === "high") gi++;
      if (egg.bbb_permeant) bbb++;
      for (const [name, verdict] of Object.entries(rules))
        if (verdict.pass) passes[name] = (passes[name] ?? 0) + 1;
      return finding;
    };
    return {
      analyze: (compound: PreparedCompound) => merge(assessAdmet(compound)),
      merge,
      finish(): AdmetSummary {
        return {
          assessed,
          not_assessed: notAssessed,
          gi_absorption_high: gi,
          bbb_permeant: bbb,
          rule_passes: passes,
          mean_qed: assessed === 0 ? null : round(qedSum / assessed),
          bbbp_validation: BBBP_VALIDATION,
          method: METHOD,
        };
      },
    };
  },
};

/** One compound's finding plus the unrounded QED the summary's mean is taken over. */
export interface AdmetAssessment {
  readonly finding: AdmetFinding;
  readonly qed: number | null;
}

/** The per-compound part (no run state), for a worker thread. */
function assessAdmet(compound: PreparedCompound): AdmetAssessment {
  if (!compound.ok) return { finding: { ...unparseableFinding(ID, compound), ...EMPTY }, qed: null };
  const base = findingBase(ID, compound);
  const { d, qed, anionic, logS } = withParentMol(compound, (mol, rdkit) => ({
    d: admetDescriptors(rdkit, mol),
    qed: computeQed(qedProperties(rdkit, mol)),
    anionic: isAnionic(rdkit, mol),
    logS: predictParentSolubility(rdkit, mol).kernel,
  }));
  const egg = boiledEgg(d.tpsa, d.wlogp);
  const rules = evaluateDrugLikeness(d);
  const finding: AdmetFinding = {
    ...base,
    status: "assessed",
    reason: null,
    qed: round(qed),
    wlogp: round(d.wlogp),
    tpsa: round(d.tpsa, 2),
    mw: round(d.mw),
    hbd: d.hbd,
    hba: d.hba,
    rotatable_bonds: d.rotatable_bonds,
    fsp3: round(d.fsp3),
    heavy_atoms: d.heavy_atoms,
    boiled_egg: egg,
    rules,
    bioavailability_score: abbottScore(anionic, d.tpsa, rules.lipinski.pass),
    log_kp_cm_s: round(logKpCmPerS(d.wlogp, d.mw), 2),
    radar: bioavailabilityRadar({
      lipo: round(d.wlogp),
      size: round(d.mw),
      polar: round(d.tpsa, 2),
      insolu: round(logS),
      insatu: round(d.fsp3),
      flex: d.rotatable_bonds,
    }),
  };
  return { finding, qed };
}
