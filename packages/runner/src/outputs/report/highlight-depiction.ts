/** What the report needs of RDKit MinimalLib to draw a depiction with highlighted atoms. */
export interface HighlightingToolkit {
  get_mol(smiles: string): { get_svg_with_highlights(details: string): string; delete(): void } | null;
}

export type Depicter = (smiles: string, atoms: readonly number[]) => string | null;

/**
 * A depiction of the parent with the given atoms highlighted (RDKit `get_svg_with_highlights`).
 * Atom indices refer to the atom order of `parent_smiles` as RDKit parses it (the contract with
 * toxicity_profile's `alert_atoms`). The wasm molecule is deleted before returning.
 */
export function createDepicter(rdkit: HighlightingToolkit): Depicter {
  return (smiles, atoms) => {
    const mol = rdkit.get_mol(smiles);
    if (mol === null) return null;
    try {
      const svg = mol.get_svg_with_highlights(JSON.stringify({ atoms: [...atoms], width: 260, height: 180 }));
      return svg.replace(/^<\?xml[^>]*\?>\s*/, "");
    } finally {
      mol.delete();
    }
  };
}

/** What {@link reportDepiction} reads of a compound's report view. */
export interface DepictionInput {
  readonly parent_smiles: string | null;
  readonly alert_atoms: Readonly<Record<string, readonly number[]>> | null;
}

/** Beyond this an SVG is left out of the report (a card then shows no drawing). */
export const DEPICTION_MAX_BYTES = 40_000;

/**
 * The depiction the report keeps for one compound: the parent (drawn from `parent_smiles`) with
 * its alert atoms highlighted when it has any; null when it did not parse or is over
 * {@link DEPICTION_MAX_BYTES}. Drawn only for the compounds that get a card, when the report is
 * composed (issue 10 item 5: depictions for the first ranked compounds only).
 */
export function reportDepiction(view: DepictionInput, depict: Depicter | null): string | null {
  if (view.parent_smiles === null || depict === null) return null;
  const highlighted = Object.values(view.alert_atoms ?? {}).flat();
  const depiction = depict(view.parent_smiles, [...new Set(highlighted)]);
  return depiction !== null && depiction.length > DEPICTION_MAX_BYTES ? null : depiction;
}
