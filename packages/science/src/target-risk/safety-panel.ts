import { readDataFile } from "../data/read-data-file.ts";
import { splitCsvLine } from "../toxicity/nibr-catalog.ts";

/** Where a safety-panel target comes from. */
export type SafetyPanel = "bowes2012" | "brennan2024";

/** One adverse effect of modulating a Bowes target, as the Open Targets curation lists it. */
export interface AdverseEffect {
  readonly symptom: string;
  readonly organ_system: string;
  /** `activation` or `inhibition`, as curated (`inhibition_acute`, `inhibition_developmental toxicity` keep their qualifier). */
  readonly direction: string;
}

/**
 * A target of an in-vitro safety pharmacology panel: Bowes et al. 2012's 44 targets (46 gene
 * symbols: KCNQ1 and KCNE1 are counted apart) and the 33 of Brennan et al. 2024's secondary
 * pharmacology list, both as curated by Open Targets.
 */
export interface SafetyTarget {
  readonly gene_symbol: string;
  /** UniProt accession (Guide to Pharmacology 2023.1 export); null for KCNE1. */
  readonly uniprot_id: string | null;
  readonly name: string | null;
  readonly panel: SafetyPanel;
  readonly organ_systems: readonly string[];
  readonly adverse_effects_on_activation: readonly string[];
  readonly adverse_effects_on_inhibition: readonly string[];
  readonly adverse_effects_other: readonly string[];
  /** Bowes targets: each effect with its organ system (the long table); Brennan targets: none. */
  readonly effects: readonly AdverseEffect[];
  readonly pmid: string;
  readonly reference: string;
}

export const SAFETY_PANEL_FILES = [
  "bowes2012-safety-targets.csv",
  "bowes2012-adverse-effects-long.csv",
  "brennan2024-secondary-pharmacology-targets.csv",
] as const;

export const BOWES_2012 =
  "Bowes et al., Nat. Rev. Drug Discov. 2012, 11, 909 (PMID 23197038): the 44-target in-vitro safety pharmacology panel, with adverse effects on activation and inhibition";
export const BRENNAN_2024 =
  "Brennan et al., Nat. Rev. Drug Discov. 2024, 23, 525 (PMID 38773351): secondary pharmacology targets and their adverse events";
export const OPEN_TARGETS_CURATION =
  "Open Targets safety curation (opentargets/curation, Apache-2.0): the two panels as gene symbol, UniProt id, organ systems and adverse effects";

/** Brennan's tissue labels in words (the same words Bowes' organ systems use where they overlap). */
const TISSUES: Readonly<Record<string, string>> = {
  CNS: "central nervous system",
  CV: "cardiovascular system",
  GI: "gastrointestinal",
};

let cached: readonly SafetyTarget[] | null = null;

/** Every panel target, Bowes first then Brennan, each in its file's order; read once. */
export function safetyPanel(): readonly SafetyTarget[] {
  cached ??= [
    ...parseBowes(readDataFile(SAFETY_PANEL_FILES[0]), readDataFile(SAFETY_PANEL_FILES[1])),
    ...parseBrennan(readDataFile(SAFETY_PANEL_FILES[2])),
  ];
  return cached;
}

/** Looks a target up by gene symbol (any letter case) or UniProt accession. */
export function findSafetyTarget(identifier: string): SafetyTarget | null {
  const key = identifier.trim().toUpperCase();
  return safetyPanel().find((t) => t.gene_symbol.toUpperCase() === key || t.uniprot_id === key) ?? null;
}

function records(text: string): Record<string, string>[] {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== "");
  const header = splitCsvLine(lines[0] ?? "");
  return lines.slice(1).map((line) => {
    const fields = splitCsvLine(line);
    return Object.fromEntries(header.map((name, at) => [name, (fields[at] ?? "").trim()]));
  });
}

/** "a; b; c" → ["a", "b", "c"]; "" → []. */
function list(cell: string | undefined, separator: string | RegExp = ";"): string[] {
  return (cell ?? "")
    .split(separator)
    .map((item) => item.trim())
    .filter((item) => item !== "");
}

export function parseBowes(summary: string, long: string): SafetyTarget[] {
  const effects = new Map<string, AdverseEffect[]>();
  for (const row of records(long)) {
    const symbol = row.gene_symbol ?? "";
    const direction = (row.effect ?? "").replace(/_general$/, "").replace("_", " ");
    const list = effects.get(symbol) ?? [];
    list.push({
      symptom: row.symptom ?? "",
      organ_system: (row.biological_system ?? "").toLowerCase(),
      direction,
    });
    effects.set(symbol, list);
  }
  return records(summary).map((row) => ({
    gene_symbol: row.gene_symbol ?? "",
    uniprot_id: row.uniprot_id || null,
    name: row.hgnc_name || null,
    panel: "bowes2012",
    organ_systems: list(row.organ_systems, "|"),
    adverse_effects_on_activation: list(row.adverse_effects_on_activation),
    adverse_effects_on_inhibition: list(row.adverse_effects_on_inhibition),
    adverse_effects_other: list(row.adverse_effects_other_direction),
    effects: effects.get(row.gene_symbol ?? "") ?? [],
    pmid: row.pmid ?? "",
    reference: BOWES_2012,
  }));
}

export function parseBrennan(text: string): SafetyTarget[] {
  return records(text).map((row) => ({
    gene_symbol: row.gene_symbol_gtopdb ?? "",
    uniprot_id: row.uniprot_id || null,
    name: null,
    panel: "brennan2024",
    organ_systems: list(row.tissue_labels, "|").map((label) => TISSUES[label] ?? label),
    adverse_effects_on_activation: list(row.adverse_events_on_activation),
    adverse_effects_on_inhibition: list(row.adverse_events_on_inhibition),
    adverse_effects_other: list(row.adverse_events_other),
    effects: [],
    pmid: row.pmid ?? "",
    reference: BRENNAN_2024,
  }));
}
