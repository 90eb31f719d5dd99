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
