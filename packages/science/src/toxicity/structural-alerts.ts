import type { Mol, RDKit } from "../rdkit.ts";
import {
  compileScreenedQuery,
  findMatches,
  patternFingerprint,
  type ScreenedQuery,
} from "../substructure/screened-query.ts";
import { type BrenkAlert, brenkAlerts } from "./brenk-catalog.ts";
import { type NibrFilter, nibrFilters } from "./nibr-catalog.ts";
import { type PainsPattern, painsPatterns } from "./pains-catalog.ts";

/** Structural alerts found on one parent: names as published, never a toxicity prediction. */
export interface StructuralAlerts {
  /** PAINS names matched, e.g. `ene_rhod_A(235)`. */
  readonly pains: readonly string[];
  /** Brenk alert names matched, e.g. `Michael_acceptor_1` (RDKit's FilterCatalog BRENK names). */
  readonly brenk: readonly string[];
  readonly nibr: readonly {
    readonly name: string;
    readonly severity: NibrFilter["severity"];
    readonly covalent: boolean;
  }[];
  /**
   * Atom indices of the parent (as in `parent_smiles`) covered by each alert, for depictions. Brenk
   * keys carry the prefix `brenk:` because 11 Brenk names (e.g. `hydrazine`) are also NIBR names.
   */
  readonly alert_atoms: Readonly<Record<string, readonly number[]>>;
}

interface Compiled {
  readonly pains: readonly (PainsPattern & ScreenedQuery)[];
  readonly nibr: readonly (NibrFilter & ScreenedQuery)[];
  readonly brenk: readonly (BrenkAlert & ScreenedQuery)[];
}

/** The `alert_atoms` (and summary `alert_counts`) key of a Brenk alert. */
export const brenkKey = (name: string): string => `brenk:${name}`;

const compiled = new WeakMap<RDKit, Compiled>();

function catalogs(rdkit: RDKit): Compiled {
  let found = compiled.get(rdkit);
  if (found === undefined) {
    found = {
      pains: painsPatterns().map((p) => ({ ...p, ...compileScreenedQuery(rdkit, p.smarts) })),
      nibr: nibrFilters().map((f) => ({ ...f, ...compileScreenedQuery(rdkit, f.smarts) })),
      brenk: brenkAlerts().map((a) => ({ ...a, ...compileScreenedQuery(rdkit, a.smarts) })),
    };
    compiled.set(rdkit, found);
  }
  return found;
}

function union(matches: readonly number[][], below: number): number[] {
  return [...new Set(matches.flat())].filter((atom) => atom < below).sort((a, b) => a - b);
}

/**
 * PAINS (Baell & Holloway 2010), NIBR hit-triage filters (Schuffenhauer et al. 2020) and Brenk
 * alerts (Brenk et al. 2008) on a parent molecule. PAINS run on a copy carrying explicit hydrogens:
 * 368 of the 480 patterns spell hydrogens as `[#1]` atoms, which RDKit WebAssembly's `get_qmol` does not merge into H counts, so
 * they only match explicit H atoms (science review 2026-11). NIBR filters run on the molecule as
 * parsed, as the NIBR script does, and count at least MIN_COUNT matches. Brenk alerts run on the
 * molecule as parsed too, as RDKit's FilterCatalog does: none of the 105 spells an `[#1]` atom.
 */
export function findStructuralAlerts(rdkit: RDKit, parent: Mol): StructuralAlerts {
  const { pains } = catalogs(rdkit);
  const heavy = parent.get_num_atoms();
  const alertAtoms: Record<string, number[]> = {};
  const painsHits: string[] = [];
  // A copy with hydrogens added in place: same atoms, same order and the same PAINS matches as
  // re-reading `add_hs()`'s molblock (checked on the 4,991 parsed NCI molecules), without the
  // molblock round trip that cost ~2.6 ms per compound (issue 10 item 4).
  const withHs = rdkit.get_mol_copy(parent);
  if (withHs === null || !withHs.add_hs_in_place()) {
    withHs?.delete();
    throw new Error("RDKit could not add hydrogens to the parent");
  }
  try {
    const fingerprint = patternFingerprint(withHs);
    for (const pattern of pains) {
      const matches = findMatches(withHs, fingerprint, pattern);
      if (matches.length === 0) continue;
      painsHits.push(pattern.name);
      alertAtoms[pattern.name] = union(matches, heavy);
    }
  } finally {
    withHs.delete();
  }
  const nibrAlerts = cachedNibrAlerts(rdkit, parent);
  const brenkAlerts = findBrenkAlerts(rdkit, parent);
  return {
    pains: painsHits,
    brenk: brenkAlerts.brenk,
    nibr: nibrAlerts.nibr,
    alert_atoms: { ...alertAtoms, ...brenkAlerts.alert_atoms, ...nibrAlerts.alert_atoms },
  };
}

/** The Brenk part of {@link findStructuralAlerts} alone (its reference test runs it on all of NCI 5K). */
export function findBrenkAlerts(rdkit: RDKit, parent: Mol): Pick<StructuralAlerts, "brenk" | "alert_atoms"> {
  const heavy = parent.get_num_atoms();
  const alertAtoms: Record<string, number[]> = {};
  const brenkHits: string[] = [];
  const fingerprint = patternFingerprint(parent);
  for (const alert of catalogs(rdkit).brenk) {
    const matches = findMatches(parent, fingerprint, alert);
    if (matches.length < alert.minCount || matches.length > alert.maxCount) continue;
    brenkHits.push(alert.name);
    alertAtoms[brenkKey(alert.name)] = union(matches, heavy);
  }
  return { brenk: brenkHits, alert_atoms: alertAtoms };
}

/** The NIBR part of {@link findStructuralAlerts} alone (manufacturability reads its reactive motifs). */
export function findNibrAlerts(rdkit: RDKit, parent: Mol): Pick<StructuralAlerts, "nibr" | "alert_atoms"> {
  const heavy = parent.get_num_atoms();
  const alertAtoms: Record<string, number[]> = {};
  const nibrHits: StructuralAlerts["nibr"][number][] = [];
  const fingerprint = patternFingerprint(parent);
  for (const filter of catalogs(rdkit).nibr) {
    const matches = findMatches(parent, fingerprint, filter);
    if (matches.length < filter.minCount) continue;
    nibrHits.push({ name: filter.name, severity: filter.severity, covalent: filter.covalent });
    alertAtoms[filter.name] = union(matches, heavy);
  }
  return { nibr: nibrHits, alert_atoms: alertAtoms };
}

// Kept per Mol handle: toxicity_profile and manufacturability_audit read the same shared parent
// (with-parent-mol.ts), and keying by its SMILES cost a get_smiles per call (issue 42 item 2). The
// entry goes with the handle.
const nibrOf = new WeakMap<Mol, Pick<StructuralAlerts, "nibr" | "alert_atoms">>();

/** {@link findNibrAlerts}, computed once when toxicity and manufacturability read the same parent. */
export function cachedNibrAlerts(rdkit: RDKit, parent: Mol): Pick<StructuralAlerts, "nibr" | "alert_atoms"> {
  let found = nibrOf.get(parent);
  if (found === undefined) {
    found = findNibrAlerts(rdkit, parent);
    nibrOf.set(parent, found);
  }
  return found;
}
