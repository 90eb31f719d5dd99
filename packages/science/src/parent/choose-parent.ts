import type { Mol, RDKit } from "../rdkit.ts";
import { molSmiles } from "./mol-memo.ts";
import { type SaltDefinition, saltDefinitions } from "./salt-definitions.ts";

/** How the parent was chosen, written into molecular_logic's raw output (issue 10 item 3). */
export const PARENT_RULE =
  "Split into fragments; strip every fragment wholly matched by a salt or solvent definition " +
  "(RDKit Data/Salts.txt, plus data/counterions-and-solvents.txt citing Stahl & Wermuth 2002, " +
  "Vogel 1989, Wittig & Raff 1951, ICH Q3C); the parent is the remaining organic fragment " +
  "(at least one carbon) with most heavy atoms. If every fragment is a listed salt, all fragments " +
  "stay candidates. A tie between different fragments sets parent_ambiguous (the first by " +
  "canonical SMILES is kept); no carbon-containing fragment sets no_organic_parent and the whole " +
  "input is kept as the parent. No tautomer canonicalisation (RDKit WebAssembly has no " +
  "standardizer); charges are neutralised next (NEUTRALISATION_RULE).";

/** The parent of a (possibly multi-fragment) molecule and why it was chosen. */
export interface ParentChoice {
  readonly parent_smiles: string;
  readonly fragment_count: number;
  /** Names of the stripped fragments, from the salt and solvent definitions. */
  readonly stripped: readonly string[];
  readonly parent_ambiguous: boolean;
  readonly no_organic_parent: boolean;
}

/** One fragment of the input and the salt or solvent definition that wholly matches it, if any. */
export interface Fragment {
  readonly smiles: string;
  readonly heavyAtoms: number;
  readonly organic: boolean;
  readonly salt: SaltDefinition | null;
}

interface CompiledSalt {
  readonly definition: SaltDefinition;
  readonly query: Mol;
  readonly atoms: number;
}

const compiled = new WeakMap<RDKit, { salts: CompiledSalt[]; carbon: Mol }>();

function patterns(rdkit: RDKit): { salts: CompiledSalt[]; carbon: Mol } {
  let found = compiled.get(rdkit);
  if (found === undefined) {
    const salts: CompiledSalt[] = [];
    for (const definition of saltDefinitions()) {
      const query = rdkit.get_qmol(definition.smarts);
      if (query === null) throw new Error(`salt definition does not parse: ${definition.smarts}`);
      salts.push({ definition, query, atoms: query.get_num_atoms() });
    }
    const carbon = rdkit.get_qmol("[#6]");
    if (carbon === null) throw new Error("carbon query does not parse");
    found = { salts, carbon };
    compiled.set(rdkit, found);
  }
  return found;
}

function describeFragment(rdkit: RDKit, fragment: Mol): Fragment {
  const { salts, carbon } = patterns(rdkit);
  const heavyAtoms = fragment.get_num_atoms(true);
  // A definition strips a fragment only when it covers every heavy atom (as RDKit's SaltRemover).
  const salt =
    salts.find((s) => s.atoms === heavyAtoms && fragment.get_substruct_match(s.query) !== "{}")?.definition ??
    null;
  return {
    smiles: fragment.get_smiles(),
    heavyAtoms,
    organic: fragment.get_substruct_match(carbon) !== "{}",
    salt,
  };
}

/** The fragments of a molecule, each classified against the salt and solvent definitions. */
export function describeFragments(rdkit: RDKit, mol: Mol): Fragment[] {
  const frags = mol.get_frags() as { molList: { size(): number; at(i: number): Mol | null; delete(): void } };
  const fragments: Fragment[] = [];
  try {
    for (let at = 0; at < frags.molList.size(); at++) {
      const fragment = frags.molList.at(at);
      if (fragment === null) continue;
      try {
        fragments.push(describeFragment(rdkit, fragment));
      } finally {
        fragment.delete();
      }
    }
  } finally {
    frags.molList.delete();
  }
  return fragments;
}

/**
 * Chooses the parent of a molecule as {@link PARENT_RULE} says. Pure over RDKit: the input
 * molecule is not changed and every temporary wasm object is deleted.
 */
export function chooseParent(rdkit: RDKit, mol: Mol): ParentChoice {
  const fragments = describeFragments(rdkit, mol);
  const whole = molSmiles(mol);
  if (fragments.length <= 1)
    return {
      parent_smiles: whole,
      fragment_count: fragments.length,
      stripped: [],
      parent_ambiguous: false,
      no_organic_parent: !(fragments[0]?.organic ?? false),
    };
  const kept = fragments.filter((f) => f.salt === null);
  const candidates = (kept.length > 0 ? kept : fragments).filter((f) => f.organic);
  const stripped =
    kept.length > 0 ? fragments.filter((f) => f.salt !== null).map((f) => f.salt?.name ?? "") : [];
  if (candidates.length === 0)
    return {
      parent_smiles: whole,
      fragment_count: fragments.length,
      stripped: [],
      parent_ambiguous: false,
      no_organic_parent: true,
    };
  const most = Math.max(...candidates.map((f) => f.heavyAtoms));
  const largest = [...new Set(candidates.filter((f) => f.heavyAtoms === most).map((f) => f.smiles))].sort();
  return {
    parent_smiles: largest[0] ?? whole,
    fragment_count: fragments.length,
    stripped,
    parent_ambiguous: largest.length > 1,
    no_organic_parent: false,
  };
}
