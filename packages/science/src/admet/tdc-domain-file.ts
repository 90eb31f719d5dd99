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
