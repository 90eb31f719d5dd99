import type { MolList } from "@rdkit/rdkit";
import type { Mol, RDKit } from "../rdkit.ts";
import {
  compileScreenedQuery,
  mayMatch,
  parseMatches,
  patternFingerprint,
  type ScreenedQuery,
} from "../substructure/screened-query.ts";
import { METABOLISM_RULES, type MetabolismRule } from "./metabolism-rules.ts";

/** One place where a rule's reaction applies, with what it would make. */
export interface CandidateSite {
  readonly rule_id: string;
  /**
   * 0-based indices, into the parent SMILES as RDKit reads it, of the atoms the rule's reactant
   * template matched, in template order (e.g. N-dealkylation: the nitrogen, then the α-carbon).
   */
  readonly atoms: readonly number[];
  /** Canonical SMILES of the products in the reaction's order: the metabolite first, co-products after. */
  readonly product_smiles: readonly string[];
  /** Other matches giving the same products (symmetry-equivalent atoms, e.g. the two ortho CH of a phenyl). */
  readonly equivalent_atoms: readonly (readonly number[])[];
}

export interface CandidateSites {
  readonly sites: readonly CandidateSite[];
  /** Rules whose enumeration stopped at a bound (so more sites of that rule may exist). */
  readonly truncated_rules: readonly string[];
}

/**
 * Bounds that keep one compound's enumeration small whatever its size: RDKit stops a rule after
 * `perRule` template matches, and a compound keeps at most `perCompound` distinct sites.
 */
export const ENUMERATION_BOUNDS: EnumerationBounds = { perRule: 40, perCompound: 120 };

export interface EnumerationBounds {
  readonly perRule: number;
  readonly perCompound: number;
}

interface CompiledRule {
  readonly rule: MetabolismRule;
  readonly reaction: ReturnType<RDKit["get_rxn"]> & object;
  readonly template: Mol;
  /** The reactant template's screens (screened-query.ts), to skip a rule that cannot match. */
  readonly screen: ScreenedQuery;
}

const compiled = new WeakMap<RDKit, CompiledRule[]>();

function compile(rdkit: RDKit): CompiledRule[] {
  let rules = compiled.get(rdkit);
  if (rules === undefined) {
    rules = METABOLISM_RULES.map((rule) => {
      const reaction = rdkit.get_rxn(rule.reaction);
      if (reaction === null) throw new Error(`metabolism rule ${rule.id} does not parse`);
      // The reactant template, compiled with its screens (it throws when the SMARTS does not parse).
      const screen = compileScreenedQuery(rdkit, rule.reaction.split(">>")[0] ?? "");
      return { rule, reaction, template: screen.query, screen };
    });
    compiled.set(rdkit, rules);
  }
  return rules;
}

/** The reactant template's matches, ununiquified, in RDKit's order (the order of `run_reactants`). */
function templateMatches(mol: Mol, template: Mol, limit: number): number[][] {
  return parseMatches(
    mol.get_substruct_matches(template, JSON.stringify({ uniquify: false, maxMatches: limit })),
  );
}

/** One rule's template matches on a molecule, as `candidateSites` pairs them with product sets. */
export function ruleTemplateMatches(rdkit: RDKit, mol: Mol, ruleId: string, limit: number): number[][] {
  const entry = compile(rdkit).find((candidate) => candidate.rule.id === ruleId);
  if (entry === undefined) throw new Error(`unknown metabolism rule ${ruleId}`);
  return templateMatches(mol, entry.template, limit);
}

/**
 * Every candidate site of every rule on one molecule. RDKit's `run_reactants` gives product sets
 * in the order of the reactant template's ununiquified substructure matches, which is how each
 * product set is paired with its atoms (candidate-sites.validation.test.ts checks the pairing against native
 * RDKit's `react_atom_idx`). Matches giving the same products are one site, the others listed as equivalent atoms.
 */
export function candidateSites(rdkit: RDKit, mol: Mol, bounds = ENUMERATION_BOUNDS): CandidateSites {
  const sites: CandidateSite[] = [];
  const truncated: string[] = [];
  for (const { rule, reaction, template, screen } of compile(rdkit)) {
    if (sites.length >= bounds.perCompound) {
      truncated.push(rule.id);
      continue;
    }
    // The screens the alert catalogs use prove most rules cannot match without the graph search
    // (a rule without matches gives no site either way; issue 42 item 2).
    if (!mayMatch(mol, patternFingerprint(mol), screen)) continue;
    const matches = templateMatches(mol, template, bounds.perRule);
    if (matches.length === 0) continue;
    const reactants = new rdkit.MolList();
    reactants.append(mol);
    const productSets = reaction.run_reactants(reactants, bounds.perRule);
    try {
      const count = productSets.size();
      if (count !== matches.length)
        throw new Error(`rule ${rule.id}: ${count} product sets for ${matches.length} template matches`);
      if (count >= bounds.perRule) truncated.push(rule.id);
      const byProducts = new Map<string, { atoms: number[]; products: string[]; equivalent: number[][] }>();
      const order: string[] = [];
      const canonical = new Map<string, string | null>();
      for (let i = 0; i < count; i++) {
        const products = readProducts(rdkit, productSets.get(i), canonical);
        if (products === null) continue;
        const atoms = matches[i] ?? [];
        const key = products.join(" ");
        const site = byProducts.get(key);
        if (site === undefined) {
          byProducts.set(key, { atoms, products, equivalent: [] });
          order.push(key);
        } else if (!sameAtoms(site.atoms, atoms) && !site.equivalent.some((other) => sameAtoms(other, atoms)))
          site.equivalent.push(atoms);
      }
      for (const key of order) {
        if (sites.length >= bounds.perCompound) break;
        const site = byProducts.get(key);
        if (site !== undefined)
          sites.push({
            rule_id: rule.id,
            atoms: site.atoms,
            product_smiles: site.products,
            equivalent_atoms: site.equivalent,
          });
      }
      if (sites.length >= bounds.perCompound && !truncated.includes(rule.id)) truncated.push(rule.id);
    } finally {
      productSets.delete();
      reactants.delete();
    }
  }
  return { sites, truncated_rules: truncated };
}

/** The same atoms in any order (a symmetric template matched twice). */
function sameAtoms(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  const sorted = [...b].sort((x, y) => x - y);
  return [...a].sort((x, y) => x - y).every((atom, i) => atom === sorted[i]);
}

/**
 * Canonical SMILES of one product set, each re-read by RDKit so an impossible valence is dropped
 * rather than reported (null when any product fails). Deletes the set's molecules.
 */
function readProducts(
  rdkit: RDKit,
  set: MolList | undefined,
  canonical: Map<string, string | null>,
): string[] | null {
  if (set === undefined) return null;
  const smiles: string[] = [];
  let valid = true;
  try {
    for (let j = 0; j < set.size(); j++) {
      const product = set.at(j);
      if (product === null) {
        valid = false;
        continue;
      }
      try {
        const read = valid ? canonicalProduct(rdkit, product, canonical) : null;
        if (read === null) valid = false;
        else smiles.push(read);
      } finally {
        product.delete();
      }
    }
  } finally {
    set.delete();
  }
  return valid ? smiles : null;
}

/**
 * The product's canonical SMILES after RDKit sanitizes it (`run_reactants` returns unsanitized
 * products), null when it cannot be. Symmetry-equivalent sites give the same raw SMILES, so the
 * re-read is cached per rule.
 */
function canonicalProduct(rdkit: RDKit, product: Mol, canonical: Map<string, string | null>): string | null {
  let raw: string;
  try {
    raw = product.get_smiles();
  } catch {
    return null;
  }
  const known = canonical.get(raw);
  if (known !== undefined) return known;
  const reread = rdkit.get_mol(raw);
  const smiles = reread?.is_valid() ? reread.get_smiles() : null;
  reread?.delete();
  canonical.set(raw, smiles);
  return smiles;
}
