import { readDataFile } from "../data/read-data-file.ts";
import { molDescriptors } from "../parent/mol-memo.ts";
import type { Mol, RDKit } from "../rdkit.ts";
import { molJson } from "../rdkit-json.ts";
import {
  compileScreenedQuery,
  hasMatch,
  parseMatches,
  patternFingerprint,
  type ScreenedQuery,
} from "../substructure/screened-query.ts";

/** Bickerton's eight properties, in the order of the published weights. */
export interface QedProperties {
  readonly MW: number;
  readonly ALOGP: number;
  readonly HBA: number;
  readonly HBD: number;
  readonly PSA: number;
  readonly ROTB: number;
  readonly AROM: number;
  readonly ALERTS: number;
}

interface AdsParameter {
  readonly A: number;
  readonly B: number;
  readonly C: number;
  readonly D: number;
  readonly E: number;
  readonly F: number;
  readonly DMAX: number;
}

interface QedData {
  readonly properties: readonly (keyof QedProperties)[];
  readonly weight_mean: readonly number[];
  readonly ads_parameters: Readonly<Record<keyof QedProperties, AdsParameter>>;
  readonly acceptor_smarts: readonly string[];
  readonly aliphatic_ring_smarts: string;
  readonly alert_smarts: readonly string[];
}

let data: QedData | null = null;

function qedData(): QedData {
  data ??= JSON.parse(readDataFile("qed-bickerton-2012.json")) as QedData;
  return data;
}

interface Compiled {
  readonly acceptors: readonly Mol[];
  readonly aliphaticRing: Mol;
  readonly alerts: readonly ScreenedQuery[];
}

const compiled = new WeakMap<RDKit, Compiled>();

function queries(rdkit: RDKit): Compiled {
  let found = compiled.get(rdkit);
  if (found === undefined) {
    const d = qedData();
    const qmol = (smarts: string) => {
      const q = rdkit.get_qmol(smarts);
      if (q === null) throw new Error(`QED SMARTS does not parse: ${smarts}`);
      return q;
    };
    found = {
      acceptors: d.acceptor_smarts.map(qmol),
      aliphaticRing: qmol(d.aliphatic_ring_smarts),
      alerts: d.alert_smarts.map((smarts) => compileScreenedQuery(rdkit, smarts)),
    };
    compiled.set(rdkit, found);
  }
  return found;
}

/** Bickerton's asymmetric double sigmoid, scaled by its maximum (Nat. Chem. 2012, eq. 1). */
function desirability(x: number, p: AdsParameter): number {
  const exp1 = 1 + Math.exp(-(x - p.C + p.D / 2) / p.E);
  const exp2 = 1 + Math.exp(-(x - p.C - p.D / 2) / p.F);
  return (p.A + (p.B / exp1) * (1 - 1 / exp2)) / p.DMAX;
}

function countMatches(mol: Mol, query: Mol): number {
  return parseMatches(mol.get_substruct_matches(query)).length;
}

/**
 * AROM as RDKit's QED computes it: delete every atom matching `[$([A;R][!a])]` (an aliphatic ring
 * atom with a non-aromatic neighbour) and count the rings of what remains. The ring count of a
 * graph's smallest set of smallest rings is its cycle rank, bonds − atoms + components. RDKit's
 * NumAromaticRings differs on some molecules and moves QED by up to 0.18 (issue 11).
 */
function aromaticRingsAsQed(mol: Mol, aliphaticRing: Mol): number {
  const deleted = new Set(parseMatches(mol.get_substruct_matches(aliphaticRing)).flat());
  const json = molJson(mol);
  const molecule = json.molecules?.[0];
  const atomCount = molecule?.atoms?.length ?? 0;
  const parent = Array.from({ length: atomCount }, (_, i) => i);
  const find = (i: number): number => {
    let root = i;
    while (parent[root] !== root) root = parent[root] ?? root;
    return root;
  };
  let atoms = 0;
  for (let i = 0; i < atomCount; i++) if (!deleted.has(i)) atoms++;
  let bonds = 0;
  let components = atoms;
  for (const bond of molecule?.bonds ?? []) {
    const [a, b] = bond.atoms ?? [];
    if (a === undefined || b === undefined || deleted.has(a) || deleted.has(b)) continue;
    bonds++;
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) {
      parent[ra] = rb;
      components--;
    }
  }
  return bonds - atoms + components;
}

/**
 * Bickerton's eight QED properties of a molecule (as parsed, implicit hydrogens), computed as
 * RDKit's `QED.properties` does: average MW, Crippen logP, acceptor-pattern matches, Lipinski-free
 * HBD, TPSA (N, O), strict rotatable bonds, AROM (above), and the number of the 116 alerts present.
 */
export function qedProperties(rdkit: RDKit, mol: Mol): QedProperties {
  const { acceptors, aliphaticRing, alerts } = queries(rdkit);
  const d = molDescriptors(mol);
  const fingerprint = patternFingerprint(mol);
  return {
    MW: d.amw ?? Number.NaN,
    ALOGP: d.CrippenClogP ?? Number.NaN,
    HBA: acceptors.reduce((sum, query) => sum + countMatches(mol, query), 0),
    HBD: d.NumHBD ?? Number.NaN,
    PSA: d.tpsa ?? Number.NaN,
    ROTB: d.NumRotatableBonds ?? Number.NaN,
    AROM: aromaticRingsAsQed(mol, aliphaticRing),
    ALERTS: alerts.filter((alert) => hasMatch(mol, fingerprint, alert)).length,
  };
}

/**
 * The SMARTS of Bickerton's 116 unwanted-group alerts present in a molecule (QED's ALERTS property
 * counts them), for toxicity_profile to report as alerts in their own right.
 */
export function matchedQedAlerts(rdkit: RDKit, mol: Mol): string[] {
  const fingerprint = patternFingerprint(mol);
  return queries(rdkit)
    .alerts.filter((alert) => hasMatch(mol, fingerprint, alert))
    .map((alert) => alert.smarts);
}

/**
 * Quantitative estimate of drug-likeness (Bickerton et al., Nat. Chem. 2012, 4, 90) with the
 * mean weights: the weighted geometric mean of the eight desirability functions, 0 to 1.
 */
export function computeQed(properties: QedProperties): number {
  const d = qedData();
  let weighted = 0;
  let weights = 0;
  d.properties.forEach((name, i) => {
    const w = d.weight_mean[i] ?? 0;
    weighted += w * Math.log(desirability(properties[name], d.ads_parameters[name]));
    weights += w;
  });
  return Math.exp(weighted / weights);
}
