import { type CompoundFinding, findingBase, type MethodCard } from "../analysis-module.ts";
import { defineModule, type ParsedCompound } from "../define-module.ts";
import { withParentMol } from "../parent/with-parent-mol.ts";
import { type CandidateSite, candidateSites, ENUMERATION_BOUNDS } from "./candidate-sites.ts";
import { METABOLISM_RULES } from "./metabolism-rules.ts";

export interface MetaboliteFinding extends CompoundFinding {
  readonly status: "assessed" | "not_assessed";
  readonly reason: string | null;
  /** Where each rule applies on the parent, with its products; no probabilities. */
  readonly candidate_sites: readonly CandidateSite[] | null;
  /** Number of candidate sites per rule id (rules with none omitted). */
  readonly sites_per_rule: Readonly<Record<string, number>> | null;
  /** Rules stopped at an enumeration bound for this compound. */
  readonly truncated_rules: readonly string[] | null;
}

export interface MetaboliteSummary {
  readonly assessed: number;
  readonly not_assessed: number;
  /** Compounds with at least one site of each rule. */
  readonly compounds_per_rule: Readonly<Record<string, number>>;
  readonly truncated_compounds: number;
  readonly bounds: typeof ENUMERATION_BOUNDS;
  readonly rules: readonly {
    readonly id: string;
    readonly name: string;
    readonly phase: string;
    readonly enzymes: string;
    readonly reaction: string;
    readonly citations: readonly string[];
    readonly basis: string;
  }[];
  readonly method: MethodCard;
}

const ID = "metabolite_prediction";

export const METABOLITE_FIXTURE_COUNT = 17;

const METHOD: MethodCard = {
  what:
    `Candidate sites of metabolism of the parent: ${METABOLISM_RULES.length} reaction rules written here as RDKit reaction SMARTS ` +
    "(aromatic and benzylic hydroxylation; N-dealkylation at aliphatic and at aromatic nitrogen, as of the " +
    "methylxanthines; O-, S-dealkylation; S- and N-oxidation; alkene epoxidation; " +
    "ester and amide hydrolysis; O-glucuronidation, O-sulfation, N-acetylation), each applied with RDKit's " +
    "reaction engine. Per site: the rule, the matched atoms (indices into parent_smiles) and the product " +
    "SMILES. A site says a reaction is chemically possible there, not that it happens: no rates, no " +
    "probabilities, no ranking of sites.",
  citations: [
    "Guengerich, Chem. Res. Toxicol. 2001, 14, 611 (P450 reactions)",
    "Testa & Krämer, Chem. Biodivers. 2007, 4, 257 (Part 2, redox reactions)",
    "Testa & Krämer, Chem. Biodivers. 2007, 4, 2031 (Part 3, hydrolysis)",
    "Testa & Krämer, Chem. Biodivers. 2008, 5, 2171 (Part 4, conjugation)",
    "Cashman & Zhang, Annu. Rev. Pharmacol. Toxicol. 2006, 46, 65 (FMO N- and S-oxygenation)",
    "Gu, Gonzalez, Kalow & Tang, Pharmacogenetics 1992, 2, 73 (caffeine N-demethylation)",
    "Gates & Miners, Br. J. Clin. Pharmacol. 1999, 47, 299 (theobromine N-demethylation)",
    "Ha, Chen, Freiburghaus & Follath, Br. J. Clin. Pharmacol. 1995, 39, 321 (theophylline N-demethylation)",
  ],
  data: [],
  validation:
    `${METABOLITE_FIXTURE_COUNT} hand-checked fixtures of drugs and a documented human metabolite, each with ` +
    "its citation (e.g. codeine → morphine, Dayer 1988; diazepam → nordazepam, Andersson 1994; acetaminophen " +
    "O-glucuronide and O-sulfate, Mazaleuskaya 2015; caffeine → paraxanthine, its main human metabolite, by " +
    "N3-demethylation, and → theobromine and theophylline, Gu 1992; theophylline → 3-methylxanthine, Ha 1995; " +
    "theobromine → 7-methylxanthine, Gates & Miners 1999), compared by InChIKey; the pairing of RDKit WebAssembly " +
    "product sets with atoms checked against native RDKit's react_atom_idx. Test: metabolism/*.test.ts.",
  limits:
    "Rules, not a trained site-of-metabolism model: every rule fires wherever its pattern matches, so the " +
    "list over-predicts (e.g. every benzene CH is an aromatic hydroxylation site) and says nothing about " +
    "which site dominates, which enzyme isoform acts, or how fast. No aliphatic (non-benzylic) hydroxylation, " +
    "aldehyde-oxidase, reductive, GSH or amino-acid conjugation rules. Products are the first step only " +
    `(no sequential metabolism). Bounded: ${ENUMERATION_BOUNDS.perRule} matches per rule, ` +
    `${ENUMERATION_BOUNDS.perCompound} sites per compound (truncated_rules says where).`,
};

const EMPTY = { candidate_sites: null, sites_per_rule: null, truncated_rules: null } as const;

/** Rule-based candidate sites of metabolism of each parsed compound's parent. */
export const metabolitePrediction = defineModule<MetaboliteFinding, MetaboliteFinding, MetaboliteSummary>({
  id: ID,
  version: "1.0.0",
  description: `Candidate sites of metabolism from ${METABOLISM_RULES.length} cited reaction rules (RDKit reactions), no probabilities`,
  method: METHOD,
  requiredInputs: ["portfolio"],
  riskChannel: "safety",
  notAssessed: (base) => ({ ...base, ...EMPTY }),
  assess: assessMetabolites,
  createRun() {
    let truncatedCompounds = 0;
    const perRule: Record<string, number> = {};
    return {
      merge(finding) {
        for (const rule of Object.keys(finding.sites_per_rule ?? {}))
          perRule[rule] = (perRule[rule] ?? 0) + 1;
        if ((finding.truncated_rules ?? []).length > 0) truncatedCompounds++;
        return finding;
      },
      finish(counts): MetaboliteSummary {
        return {
          ...counts,
          compounds_per_rule: perRule,
          truncated_compounds: truncatedCompounds,
          bounds: ENUMERATION_BOUNDS,
          rules: METABOLISM_RULES.map(({ id, name, phase, enzymes, reaction, citations, basis }) => ({
            id,
            name,
            phase,
            enzymes,
            reaction,
            citations,
            basis,
          })),
          method: METHOD,
        };
      },
    };
  },
});

/** The per-compound part (no run state), for a worker thread (analysis-module.ts). */
function assessMetabolites(compound: ParsedCompound): MetaboliteFinding {
  const { sites, truncated_rules } = withParentMol(compound, (mol, rdkit) => candidateSites(rdkit, mol));
  const counts: Record<string, number> = {};
  for (const site of sites) counts[site.rule_id] = (counts[site.rule_id] ?? 0) + 1;
  return {
    ...findingBase(ID, compound),
    status: "assessed",
    reason: null,
    candidate_sites: sites,
    sites_per_rule: counts,
    truncated_rules,
  };
}
