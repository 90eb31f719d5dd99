import { findSafetyTarget, type SafetyPanel, type SafetyTarget } from "./safety-panel.ts";

/**
 * One row of the project's `targets.csv` as the runner validated it (runner README, "The target
 * table"): a gene symbol, a UniProt accession or both, and an optional name.
 */
export interface StagedTarget {
  /** Line of the row in targets.csv (1 = header). */
  readonly line: number;
  readonly gene_symbol: string | null;
  readonly uniprot_id: string | null;
  readonly name: string | null;
}

/** What the safety panels say of one staged target (the target side of target_biology_risk). */
export interface TargetAssessment {
  readonly line: number;
  /** The staged identifier as given: the gene symbol, else the UniProt accession. */
  readonly identifier: string;
  readonly name: string | null;
  readonly on_safety_panel: boolean;
  readonly panel: SafetyPanel | null;
  readonly gene_symbol: string | null;
  readonly uniprot_id: string | null;
  readonly organ_systems: readonly string[];
  readonly adverse_effects_on_activation: readonly string[];
  readonly adverse_effects_on_inhibition: readonly string[];
  readonly adverse_effects_other: readonly string[];
  readonly effects: SafetyTarget["effects"];
  readonly pmid: string | null;
  readonly citation: string | null;
  /** The identifiers matched a different panel target each (symbol and accession disagree). */
  readonly conflict: string | null;
  readonly note: string;
}

const NOT_ON_PANEL =
  "not on the Bowes 2012 or Brennan 2024 safety panels: no curated adverse effects of modulating it here " +
  "(absence from the panels is not evidence that modulating it is safe)";

/** Looks one staged target up on the safety panels, by gene symbol and by UniProt accession. */
export function assessStagedTarget(target: StagedTarget): TargetAssessment {
  const bySymbol = target.gene_symbol === null ? null : findSafetyTarget(target.gene_symbol);
  const byAccession = target.uniprot_id === null ? null : findSafetyTarget(target.uniprot_id);
  const found = bySymbol ?? byAccession;
  const conflict =
    bySymbol !== null && byAccession !== null && bySymbol !== byAccession
      ? `gene symbol ${target.gene_symbol} is panel target ${bySymbol.gene_symbol}, UniProt ${target.uniprot_id} is ${byAccession.gene_symbol}; the gene symbol is used`
      : null;
  const identifier = target.gene_symbol ?? target.uniprot_id ?? "";
  if (found === null)
    return {
      line: target.line,
      identifier,
      name: target.name,
      on_safety_panel: false,
      panel: null,
      gene_symbol: target.gene_symbol,
      uniprot_id: target.uniprot_id,
      organ_systems: [],
      adverse_effects_on_activation: [],
      adverse_effects_on_inhibition: [],
      adverse_effects_other: [],
      effects: [],
      pmid: null,
      citation: null,
      conflict,
      note: NOT_ON_PANEL,
    };
  return {
    line: target.line,
    identifier,
    name: target.name ?? found.name,
    on_safety_panel: true,
    panel: found.panel,
    gene_symbol: found.gene_symbol,
    uniprot_id: found.uniprot_id ?? target.uniprot_id,
    organ_systems: found.organ_systems,
    adverse_effects_on_activation: found.adverse_effects_on_activation,
    adverse_effects_on_inhibition: found.adverse_effects_on_inhibition,
    adverse_effects_other: found.adverse_effects_other,
    effects: found.effects,
    pmid: found.pmid,
    citation: found.reference,
    conflict,
    note:
      "on a safety panel: modulating this target is itself associated with the adverse effects listed " +
      "(direction matters: an inhibitor carries the inhibition effects, an agonist the activation ones)",
  };
}
