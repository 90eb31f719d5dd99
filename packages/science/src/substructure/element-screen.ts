import type { Mol } from "../rdkit.ts";
import { molJson, type RDKitJson } from "../rdkit-json.ts";

/**
 * A necessary condition for a SMARTS match, from the elements its atoms allow: a match maps query
 * atoms to distinct molecule atoms, so for every element set S that some query atom is limited
 * to, the molecule needs at least as many atoms with an element in S as there are query atoms
 * limited to a subset of S. Exact by construction (it never rejects a molecule the query
 * matches); it only spares the graph match (issue 10 item 4).
 */
export interface ElementScreen {
  /** Query atoms in all (a molecule with fewer atoms cannot match). */
  readonly atoms: number;
  /** Each distinct allowed element set and how many query atoms are limited to a subset of it. */
  readonly needs: readonly { readonly elements: readonly number[]; readonly count: number }[];
}

/** An RDKit query-atom tree as `get_json` writes it (extension `rdkitQueries`). */
interface QueryNode {
  readonly descr?: string;
  readonly negated?: boolean;
  readonly val?: number;
  readonly children?: readonly QueryNode[];
  readonly subquery?: { readonly extensions?: readonly Extension[] };
}

interface Extension {
  readonly name?: string;
  readonly atomQueries?: readonly QueryNode[];
}

/**
 * The element set an atom query allows, or null when it does not limit the element. Only
 * positive atomic-number tests limit it (`AtomAtomicNum`, `AtomType` whose value is the atomic
 * number, plus 1000 when aromatic); AND takes the narrowest limit of its parts, OR the union of
 * its parts' limits (none if any part is unlimited), a recursive SMARTS the limit of its first
 * atom; negations and every other test leave the element open.
 */
export function allowedElements(node: QueryNode): Set<number> | null {
  if (node.negated === true) return null;
  switch (node.descr) {
    case "AtomAtomicNum":
    case "AtomType":
      return typeof node.val === "number" ? new Set([node.val % 1000]) : null;
    case "AtomAnd": {
      let allowed: Set<number> | null = null;
      for (const child of node.children ?? []) {
        const part = allowedElements(child);
        if (part === null) continue;
        const narrower: Set<number> = allowed ?? part;
        allowed = new Set([...narrower].filter((z) => part.has(z)));
      }
      return allowed;
    }
    case "AtomOr": {
      const allowed = new Set<number>();
      for (const child of node.children ?? []) {
        const part = allowedElements(child);
        if (part === null) return null;
        for (const z of part) allowed.add(z);
      }
      return node.children === undefined || node.children.length === 0 ? null : allowed;
    }
    case "RecursiveStructure": {
      const first = queriesOf(node.subquery?.extensions)?.[0];
      return first === undefined ? null : allowedElements(first);
    }
    default:
      return null;
  }
}

function queriesOf(extensions: readonly Extension[] | undefined): readonly QueryNode[] | undefined {
  return extensions?.find((extension) => extension.name === "rdkitQueries")?.atomQueries;
}

interface MolJson {
  readonly defaults?: { readonly atom?: { readonly z?: number } };
  readonly molecules?: readonly {
    readonly atoms?: readonly { readonly z?: number }[];
    readonly extensions?: readonly Extension[];
  }[];
}

/** The element screen of a compiled query, from its `get_json()`. */
export function elementScreenOf(queryJson: string): ElementScreen {
  const doc = JSON.parse(queryJson) as MolJson;
  const molecule = doc.molecules?.[0];
  const atomCount = molecule?.atoms?.length ?? 0;
  const queries = queriesOf(molecule?.extensions) ?? [];
  const sets: Set<number>[] = [];
  for (let i = 0; i < atomCount; i++) {
    const node = queries[i];
    const allowed = node === undefined ? null : allowedElements(node);
    if (allowed !== null) sets.push(allowed);
  }
  const distinct = new Map<string, number[]>();
  for (const set of sets) {
    const elements = [...set].sort((a, b) => a - b);
    distinct.set(elements.join(","), elements);
  }
  const needs = [...distinct.values()].map((elements) => ({
    elements,
    count: sets.filter((set) => [...set].every((z) => elements.includes(z))).length,
  }));
  return { atoms: atomCount, needs };
}

const counts = new WeakMap<Mol, Map<number, number>>();

/** Atoms per atomic number of a molecule (explicit atoms only), computed once per Mol handle. */
export function elementCounts(mol: Mol): Map<number, number> {
  let found = counts.get(mol);
  if (found === undefined) {
    found = countElements(molJson(mol));
    counts.set(mol, found);
  }
  return found;
}

/** Atoms per atomic number from a molecule's RDKit JSON (`z` defaults to the document's default, 6). */
export function countElements(doc: RDKitJson): Map<number, number> {
  const fallback = doc.defaults?.atom?.z ?? 6;
  const found = new Map<number, number>();
  for (const molecule of doc.molecules ?? [])
    for (const atom of molecule.atoms ?? []) {
      const z = atom.z ?? fallback;
      found.set(z, (found.get(z) ?? 0) + 1);
    }
  return found;
}

/** False when the molecule's elements prove the query cannot match. */
export function passesElementScreen(molCounts: ReadonlyMap<number, number>, screen: ElementScreen): boolean {
  let total = 0;
  for (const n of molCounts.values()) total += n;
  if (total < screen.atoms) return false;
  for (const need of screen.needs) {
    let have = 0;
    for (const z of need.elements) have += molCounts.get(z) ?? 0;
    if (have < need.count) return false;
  }
  return true;
}
