import { readDataFile } from "../data/read-data-file.ts";
import type { DomainFloor } from "./domain-floor.ts";

/** `data/tdc-domain-floors.json`: each TDC model's floor and error-vs-similarity table (issue 36 item 5). */
export const TDC_DOMAIN_FILE = "tdc-domain-floors.json";

/** The share of approved drugs in a model's domain, at the new floor and at the old (5th-percentile) limit. */
export interface ApprovedInDomain {
  /** Approved structures RDKit parses (any of FDA, EMA, PMDA in DrugCentral's export). */
  readonly drugs: number;
  /** Of them, inside the organic classes and at or above the floor. */
  readonly in_domain: number;
  readonly share: number;
  /** At the old limit, the training compounds' 5th-percentile leave-one-out similarity. */
  readonly in_domain_old_limit: number;
  readonly share_old_limit: number;
}

export interface TdcDomainEntry extends DomainFloor {
  readonly key: string;
  /** Test compounds (deduplicated parents of the scaffold test part) the table is computed on. */
  readonly test_compounds: number;
  /** The limit it replaces: the training compounds' 5th-percentile leave-one-out nearest-neighbour Tanimoto. */
  readonly old_limit: number;
  readonly approved: ApprovedInDomain;
}

export interface TdcDomainFile {
  readonly generated_by: string;
  readonly rule: string;
  readonly approved_reference: string;
  readonly models: Readonly<Record<string, TdcDomainEntry>>;
}

let cached: TdcDomainFile | null = null;

/** The checked-in floors, read once per thread. */
export function tdcDomainFile(): TdcDomainFile {
  cached ??= JSON.parse(readDataFile(TDC_DOMAIN_FILE)) as TdcDomainFile;
  return cached;
}

const f3 = (v: number) => v.toFixed(3);
const pct = (v: number) => `${Math.round(v * 100)}%`;

/** One model's floor in a sentence, with its error-vs-similarity bins: what each method card states. */
export function tdcDomainText(key: string): string {
  const e = tdcDomainFile().models[key];
  if (e === undefined) return `${key}: no domain floor`;
  const name = e.metric === "auroc" ? "AUROC" : "MAE";
  const bins = e.bins
    .map(
      (b) =>
        `${f3(b.from)}–${f3(b.to)} ${name} ${f3(b.figure)} (${b.compounds}${b.within_margin ? "" : ", worse"})`,
    )
    .join(", ");
  return (
    `${key} floor ${f3(e.min_tanimoto)} (error floor ${f3(e.error_floor)}, random pairs' 95th percentile ` +
    `${f3(e.random_pair_p95)}; the old 5th-percentile limit was ${f3(e.old_limit)}), approved drugs in domain ` +
    `${pct(e.approved.share)} (was ${pct(e.approved.share_old_limit)}); test ${name} ${f3(e.in_domain_figure)} on ` +
    `${e.test_compounds}, by nearest-training similarity: ${bins}`
  );
}

/** docs/science.md's table: each model's floor, its basis and the approved drugs it keeps in domain. */
export function tdcDomainTable(): string {
  const lines = [
    "| model | floor | error floor | random pairs' 95th pct | old limit | approved drugs in domain (old) | test figure by nearest-training Tanimoto (compounds; * worse than the margin) |",
    "|---|---|---|---|---|---|---|",
  ];
  for (const e of Object.values(tdcDomainFile().models)) {
    const name = e.metric === "auroc" ? "AUROC" : "MAE";
    const bins = e.bins
      .map((b) => `${f3(b.from)}–${f3(b.to)}: ${f3(b.figure)} (${b.compounds})${b.within_margin ? "" : "*"}`)
      .join("; ");
    lines.push(
      `| ${e.key} | ${f3(e.min_tanimoto)} | ${f3(e.error_floor)} | ${f3(e.random_pair_p95)} | ${f3(e.old_limit)} | ` +
        `${pct(e.approved.share)} of ${e.approved.drugs} (${pct(e.approved.share_old_limit)}) | ${name} ${f3(e.in_domain_figure)} overall; ${bins} |`,
    );
  }
  return `${lines.join("\n")}\n`;
}

/**
 * The share of a classifier's skill it keeps below its domain floor, so a decision can read an
 * out-of-domain estimate for what it is worth instead of dropping it (issue 36: a verdict reads every
 * finding the run computed, in domain or not): (AUROC − 0.5) on the scaffold-test compounds below
 * the floor — the compound-weighted mean of the floor table's bins there — over (AUROC − 0.5) on the
 * whole test part, clamped to 0–1. 0 when no test compound lies below the floor (nothing measured
 * says the estimate is worth anything there) and for regressors.
 */
export function outOfDomainSkillShare(key: string): number {
  const e = tdcDomainFile().models[key];
  if (e === undefined || e.metric !== "auroc") return 0;
  const below = e.bins.filter((bin) => bin.to <= e.min_tanimoto + 1e-9);
  const compounds = below.reduce((sum, bin) => sum + bin.compounds, 0);
  if (compounds === 0 || e.in_domain_figure <= 0.5) return 0;
  const auroc = below.reduce((sum, bin) => sum + bin.figure * bin.compounds, 0) / compounds;
  return Math.min(1, Math.max(0, (auroc - 0.5) / (e.in_domain_figure - 0.5)));
}
