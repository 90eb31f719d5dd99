import { type CompoundFinding, findingBase, type MethodCard, ratio } from "./analysis-module.ts";
import { defineModule, type ParsedCompound } from "./define-module.ts";
import { round } from "./numeric/round.ts";
import type { Descriptors } from "./prepare-compound.ts";

export interface RuleResult {
  readonly pass: boolean;
  readonly violations: readonly string[];
}

export interface DrugLikenessFinding extends CompoundFinding {
  readonly status: "assessed" | "not_assessed";
  readonly reason: string | null;
  readonly descriptors: {
    readonly mw: number;
    readonly clogp: number;
    readonly tpsa: number;
    readonly hbd: number;
    readonly hba: number;
    readonly rotatable_bonds: number;
    readonly aromatic_rings: number;
    readonly fsp3: number;
  } | null;
  readonly rules: {
    readonly lipinski: RuleResult;
    readonly veber: RuleResult;
    readonly egan: RuleResult;
  } | null;
}

export interface DrugLikenessSummary {
  readonly assessed: number;
  readonly not_assessed: number;
  readonly lipinski_pass: number;
  readonly veber_pass: number;
  readonly egan_pass: number;
  readonly all_rules_pass: number;
  readonly lipinski_pass_rate: number;
  readonly veber_pass_rate: number;
  readonly egan_pass_rate: number;
  readonly all_rules_pass_rate: number;
  readonly mean: Readonly<Record<string, number>> | null;
  readonly method: MethodCard;
}

/** Rule thresholds, recorded in thresholds/measurement_profile.json. */
export const DRUG_LIKENESS_RULES = {
  lipinski: {
    source: "Lipinski et al. 1997, Adv Drug Deliv Rev 23:3; at most one violation",
    mw_max: 500,
    clogp_max: 5,
    hbd_max: 5,
    hba_max: 10,
    max_violations: 1,
  },
  veber: { source: "Veber et al. 2002, J Med Chem 45:2615", rotatable_bonds_max: 10, tpsa_max: 140 },
  egan: { source: "Egan et al. 2000, J Med Chem 43:3867", tpsa_max: 131.6, clogp_max: 5.88 },
} as const;

const ID = "kinase_drug_likeness";

const METHOD: MethodCard = {
  what:
    "General oral drug-likeness, not kinase-specific: nothing in this module uses kinase data. RDKit " +
    "descriptors of the parent checked against Lipinski's rule of five (at most one violation), Veber's " +
    "and Egan's limits. The module keeps its policy id; kinase-specific evidence would need kinase " +
    "activity data that this build does not have.",
  citations: [
    "Lipinski et al., Adv. Drug Deliv. Rev. 1997, 23, 3",
    "Veber et al., J. Med. Chem. 2002, 45, 2615",
    "Egan, Merz & Baldwin, J. Med. Chem. 2000, 43, 3867",
  ],
  data: [],
  validation:
    "Descriptors and verdicts equal to native RDKit on 4,989 NCI first_5K molecules (issue 10 measurement); " +
    "imatinib fixture against its published InChIKey.",
  limits:
    "Egan is applied as its two published limits (a box), not the ellipse: admet_predictions reports the " +
    "egg. Rules of thumb for passive oral absorption; they say nothing about potency or selectivity.",
};

/** Lipinski (Ro5, ≤1 violation), Veber and Egan rules over RDKit descriptors of the parent. */
export function evaluateRules(d: Descriptors): DrugLikenessFinding["rules"] & object {
  const L = DRUG_LIKENESS_RULES.lipinski;
  const lipinski: string[] = [];
  if (d.average_mw > L.mw_max) lipinski.push(`MW ${d.average_mw} > ${L.mw_max}`);
  if (d.clogp > L.clogp_max) lipinski.push(`WLOGP ${d.clogp} > ${L.clogp_max}`);
  if (d.lipinski_hbd > L.hbd_max) lipinski.push(`HBD ${d.lipinski_hbd} > ${L.hbd_max}`);
  if (d.lipinski_hba > L.hba_max) lipinski.push(`HBA ${d.lipinski_hba} > ${L.hba_max}`);
  const V = DRUG_LIKENESS_RULES.veber;
  const veber: string[] = [];
  if (d.rotatable_bonds > V.rotatable_bonds_max)
    veber.push(`rotatable bonds ${d.rotatable_bonds} > ${V.rotatable_bonds_max}`);
  if (d.tpsa > V.tpsa_max) veber.push(`TPSA ${d.tpsa} > ${V.tpsa_max}`);
  const E = DRUG_LIKENESS_RULES.egan;
  const egan: string[] = [];
  if (d.tpsa > E.tpsa_max) egan.push(`TPSA ${d.tpsa} > ${E.tpsa_max}`);
  if (d.clogp > E.clogp_max) egan.push(`WLOGP ${d.clogp} > ${E.clogp_max}`);
  return {
    lipinski: { pass: lipinski.length <= L.max_violations, violations: lipinski },
    veber: { pass: veber.length === 0, violations: veber },
    egan: { pass: egan.length === 0, violations: egan },
  };
}

/** Drug-likeness of each parsed compound; unparseable rows are listed as not assessed. */
export const kinaseDrugLikeness = defineModule<DrugLikenessFinding, DrugLikenessFinding, DrugLikenessSummary>(
  {
    id: ID,
    version: "1.0.0",
    description:
      "General oral drug-likeness (not kinase-specific): Lipinski, Veber, Egan rules on RDKit descriptors",
    method: METHOD,
    requiredInputs: ["portfolio"],
    riskChannel: "chemistry",
    notAssessed: (base) => ({ ...base, descriptors: null, rules: null }),
    assess: assessDrugLikeness,
    createRun() {
      const pass = { lipinski: 0, veber: 0, egan: 0, all: 0 };
      const sums = {
        mw: 0,
        clogp: 0,
        tpsa: 0,
        hbd: 0,
        hba: 0,
        rotatable_bonds: 0,
        aromatic_rings: 0,
        fsp3: 0,
      };
      return {
        merge(finding) {
          const { rules, descriptors } = finding;
          if (rules === null || descriptors === null) return finding;
          if (rules.lipinski.pass) pass.lipinski++;
          if (rules.veber.pass) pass.veber++;
          if (rules.egan.pass) pass.egan++;
          if (rules.lipinski.pass && rules.veber.pass && rules.egan.pass) pass.all++;
          for (const key of Object.keys(sums) as (keyof typeof sums)[]) sums[key] += descriptors[key];
          return finding;
        },
        finish(counts): DrugLikenessSummary {
          const { assessed } = counts;
          return {
            ...counts,
            lipinski_pass: pass.lipinski,
            veber_pass: pass.veber,
            egan_pass: pass.egan,
            all_rules_pass: pass.all,
            lipinski_pass_rate: ratio(pass.lipinski, assessed),
            veber_pass_rate: ratio(pass.veber, assessed),
            egan_pass_rate: ratio(pass.egan, assessed),
            all_rules_pass_rate: ratio(pass.all, assessed),
            mean:
              assessed === 0
                ? null
                : Object.fromEntries(
                    Object.entries(sums).map(([key, sum]) => [key, round(sum / assessed, 3)]),
                  ),
            method: METHOD,
          };
        },
      };
    },
  },
);

/** The per-compound part (no run state), for a worker thread. */
function assessDrugLikeness(compound: ParsedCompound): DrugLikenessFinding {
  const base = findingBase(ID, compound);
  const d = compound.chem.descriptors;
  const descriptors = {
    mw: d.average_mw,
    clogp: d.clogp,
    tpsa: d.tpsa,
    hbd: d.lipinski_hbd,
    hba: d.lipinski_hba,
    rotatable_bonds: d.rotatable_bonds,
    aromatic_rings: d.aromatic_rings,
    fsp3: d.fraction_csp3,
  };
  return { ...base, status: "assessed", reason: null, descriptors, rules: evaluateRules(d) };
}
