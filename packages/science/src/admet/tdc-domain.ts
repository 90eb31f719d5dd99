import { readGzipDataFile } from "../data/read-data-file.ts";
import { decodeOnBits, type Fingerprint, packBits, tanimoto } from "../fingerprint/morgan.ts";
import { fingerprintSet, maxTanimoto } from "../fingerprint/reference-set.ts";
import { DRUGCENTRAL_SOURCE_FILE } from "../target-risk/drugcentral-index.ts";
import { splitCsvLine } from "../toxicity/nibr-catalog.ts";
import {
  DOMAIN_FLOOR_RULE,
  domainFloor,
  randomPairPercentile,
  type ScoredTestCompound,
} from "./domain-floor.ts";
import type { TdcDataset } from "./tdc-datasets.ts";
import type { TdcDomainEntry, TdcDomainFile } from "./tdc-domain-file.ts";
import type { TdcFeatures } from "./tdc-features.ts";
import { correctedTdcRows } from "./tdc-label-corrections.ts";
import { readTdcModelFile, tdcProbability, tdcValue } from "./tdc-model.ts";

/** DrugCentral's approved structures (FDA, EMA or PMDA), as SMILES: the reference set for the in-domain share. */
export function approvedDrugSmiles(): string[] {
  const lines = readGzipDataFile(DRUGCENTRAL_SOURCE_FILE)
    .split(/\r?\n/)
    .filter((line) => line !== "");
  const header = splitCsvLine(lines[0] ?? "");
  const at = (name: string) => header.indexOf(name);
  const [smiles, fda, ema, pmda, parses] = [
    "SMILES",
    "in_FDA_Approved_csv",
    "in_EMA_Approved_csv",
    "in_PMDA_Approved_csv",
    "rdkit_parses",
  ].map(at) as [number, number, number, number, number];
  return lines.slice(1).flatMap((line) => {
    const f = splitCsvLine(line);
    const approved = f[fda] === "1" || f[ema] === "1" || f[pmda] === "1";
    return approved && f[parses] === "1" && (f[smiles] ?? "") !== "" ? [f[smiles] as string] : [];
  });
}

export const APPROVED_REFERENCE =
  "DrugCentral's approved structures (any of FDA, EMA, PMDA; drugcentral-structures-approval-targets.csv.gz, " +
  "rdkit_parses 1), prepared as a run's compounds; outside the organic classes counts as out of domain";

/**
 * One model's entry, recomputed from the checked-in split, weights and training bits: each test
 * parent scored once (duplicates grouped, labels averaged, as the test figures are), its nearest
 * training similarity, the error-vs-similarity table and the floor, and the approved drugs' share.
 */
export function tdcDomainEntry(
  d: TdcDataset,
  features: (smiles: string) => TdcFeatures,
  approved: readonly (Fingerprint | null)[],
): TdcDomainEntry {
  const file = readTdcModelFile(d.key);
  const training = file.train_bits.map((bits) => packBits(decodeOnBits(bits)));
  const set = fingerprintSet(training);
  const rows = correctedTdcRows(d);
  const groups = new Map<string, { ys: number[]; bits: number[]; x: number[] }>();
  [...file.row_split].forEach((code, i) => {
    if (code !== "s" && code !== "S") return;
    const f = features(rows[i]?.smiles ?? "");
    if (!f.ok) throw new Error(`${d.key} row ${i + 2}: a test row that does not featurise`);
    const g = groups.get(f.parent);
    if (g === undefined) groups.set(f.parent, { ys: [rows[i]?.y ?? 0], bits: f.bits, x: f.x });
    else g.ys.push(rows[i]?.y ?? 0);
  });
  const test: ScoredTestCompound[] = [...groups.values()].map((g) => {
    const y = g.ys.reduce((a, b) => a + b, 0) / g.ys.length;
    return {
      similarity: maxTanimoto(packBits(g.bits), set),
      predicted:
        d.task === "classification" ? tdcProbability(file, g.bits, g.x) : tdcValue(file, g.bits, g.x),
      observed: d.task === "classification" ? (y >= 0.5 ? 1 : 0) : y,
    };
  });
  const p95 = randomPairPercentile(training.length, (i, j) =>
    tanimoto(training[i] as Fingerprint, training[j] as Fingerprint),
  );
  const floor = domainFloor(d.task, test, p95);
  const nearest = approved.map((fp) => (fp === null ? -1 : maxTanimoto(fp, set)));
  const count = (limit: number) => nearest.filter((s) => s >= limit).length;
  const share = (n: number) => Math.round((n / approved.length) * 1000) / 1000;
  const inDomain = count(floor.min_tanimoto);
  const old = count(file.domain.min_tanimoto);
  return {
    key: d.key,
    test_compounds: test.length,
    old_limit: file.domain.min_tanimoto,
    ...floor,
    approved: {
      drugs: approved.length,
      in_domain: inDomain,
      share: share(inDomain),
      in_domain_old_limit: old,
      share_old_limit: share(old),
    },
  };
}

/** The whole file from the entries (the script writes it; the test compares it). */
export function tdcDomainFileOf(entries: readonly TdcDomainEntry[]): TdcDomainFile {
  return {
    generated_by: "packages/science/scripts/tdc-domain-floors.ts",
    rule: DOMAIN_FLOOR_RULE,
    approved_reference: APPROVED_REFERENCE,
    models: Object.fromEntries(entries.map((e) => [e.key, e])),
  };
}
