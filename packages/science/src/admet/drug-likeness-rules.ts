import type { AdmetDescriptors } from "./admet-descriptors.ts";

export interface RuleVerdict {
  readonly pass: boolean;
  /** Human text, e.g. "MW 581.2 > 500". */
  readonly violations: readonly string[];
}

type Limit = readonly [key: keyof AdmetDescriptors, label: string, min: number | null, max: number | null];

interface RuleSet {
  readonly source: string;
  readonly limits: readonly Limit[];
  /** Violations tolerated (Lipinski: one). */
  readonly allowed: number;
}

/**
 * The published limits of each rule set, as SwissADME applies them (Daina, Michielin & Zoete,
 * Sci. Rep. 2017, 7, 42717), with WLOGP (Wildman–Crippen) wherever the original used another
 * logP (Lipinski's CLOGP, Muegge's and Teague's XLOGP): stated here and in the method card.
 */
export const RULE_SETS = {
  lipinski: {
    source: "Lipinski et al., Adv. Drug Deliv. Rev. 1997, 23, 3 (at most one violation)",
    allowed: 1,
    limits: [
      ["mw", "MW", null, 500],
      ["wlogp", "WLOGP", null, 5],
      ["hbd", "HBD", null, 5],
      ["hba", "HBA", null, 10],
    ],
  },
  ghose: {
    source: "Ghose, Viswanadhan & Wendoloski, J. Comb. Chem. 1999, 1, 55",
    allowed: 0,
    limits: [
      ["mw", "MW", 160, 480],
      ["wlogp", "WLOGP", -0.4, 5.6],
      ["mr", "MR", 40, 130],
      ["atoms", "atoms", 20, 70],
    ],
  },
  veber: {
    source: "Veber et al., J. Med. Chem. 2002, 45, 2615",
    allowed: 0,
    limits: [
      ["rotatable_bonds", "rotatable bonds", null, 10],
      ["tpsa", "TPSA", null, 140],
    ],
  },
  egan: {
    source: "Egan, Merz & Baldwin, J. Med. Chem. 2000, 43, 3867 (the limits of its 99% ellipse)",
    allowed: 0,
    limits: [
      ["wlogp", "WLOGP", null, 5.88],
      ["tpsa", "TPSA", null, 131.6],
    ],
  },
  muegge: {
    source: "Muegge, Heald & Brittelli, J. Med. Chem. 2001, 44, 1841",
    allowed: 0,
    limits: [
      ["mw", "MW", 200, 600],
      ["wlogp", "WLOGP", -2, 5],
      ["tpsa", "TPSA", null, 150],
      ["rings", "rings", null, 7],
      ["carbons", "carbons", 5, null],
      ["heteroatoms", "heteroatoms", 2, null],
      ["rotatable_bonds", "rotatable bonds", null, 15],
      ["hba", "HBA", null, 10],
      ["hbd", "HBD", null, 5],
    ],
  },
  lead_likeness: {
    source: "Teague, Davis, Leeson & Oprea, Angew. Chem. Int. Ed. 1999, 38, 3743",
    allowed: 0,
    limits: [
      ["mw", "MW", 250, 350],
      ["wlogp", "WLOGP", null, 3.5],
      ["rotatable_bonds", "rotatable bonds", null, 7],
    ],
  },
} as const satisfies Record<string, RuleSet>;

export type RuleName = keyof typeof RULE_SETS;

function show(value: number): string {
  return String(Math.round(value * 100) / 100);
}

/** One rule set's verdict: every limit broken, as text, and pass when within the allowance. */
export function evaluateRuleSet(rule: RuleSet, d: AdmetDescriptors): RuleVerdict {
  const violations: string[] = [];
  for (const [key, label, min, max] of rule.limits) {
    const value = d[key];
    if (min !== null && value < min) violations.push(`${label} ${show(value)} < ${min}`);
    if (max !== null && value > max) violations.push(`${label} ${show(value)} > ${max}`);
  }
  return { pass: violations.length <= rule.allowed, violations };
}

/** Lipinski, Ghose, Veber, Egan, Muegge and lead-likeness verdicts of one parent. */
export function evaluateDrugLikeness(d: AdmetDescriptors): Record<RuleName, RuleVerdict> {
  return Object.fromEntries(
    Object.entries(RULE_SETS).map(([name, rule]) => [name, evaluateRuleSet(rule, d)]),
  ) as Record<RuleName, RuleVerdict>;
}
