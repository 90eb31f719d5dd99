import { compactSvg } from "./svg-compact.ts";

/** What the report needs of RDKit MinimalLib: depictions (with highlights) and Morgan bits. */
export interface HighlightingToolkit {
  get_mol(smiles: string): {
    get_svg_with_highlights(details: string): string;
    get_morgan_fp?(details: string): string;
    is_valid?(): boolean;
    delete(): void;
  } | null;
}

export type Depicter = (smiles: string, atoms: readonly number[]) => string | null;

/** The drawings and fingerprints the report makes when it is composed (RDKit on this thread). */
export interface ReportChemistry {
  readonly depict: Depicter;
  /** A small drawing for the table and the ranked list (THUMBNAIL_WIDTH × THUMBNAIL_HEIGHT). */
  readonly thumbnail: (smiles: string) => string | null;
  /** Morgan radius-2, 2,048-bit on-bits (ascending), as the science package's fingerprints. */
  readonly onBits: (smiles: string) => number[] | null;
}

export const THUMBNAIL_WIDTH = 120;
export const THUMBNAIL_HEIGHT = 80;
/** Beyond this a thumbnail is left out (the row shows none), keeping rows bounded in size. */
export const THUMBNAIL_MAX_BYTES = 12_000;
const MORGAN_OPTIONS = JSON.stringify({ radius: 2, nBits: 2048 });

export function createReportChemistry(rdkit: HighlightingToolkit): ReportChemistry {
  const withMol = <T>(
    smiles: string,
    use: (mol: NonNullable<ReturnType<HighlightingToolkit["get_mol"]>>) => T,
  ) => {
    const mol = rdkit.get_mol(smiles);
    if (mol === null) return null;
    try {
      if (mol.is_valid && !mol.is_valid()) return null;
      return use(mol);
    } finally {
      mol.delete();
    }
  };
  return {
    depict: createDepicter(rdkit),
    thumbnail: (smiles) => {
      const svg = withMol(smiles, (mol) =>
        compactSvg(
          mol.get_svg_with_highlights(
            JSON.stringify({
              width: THUMBNAIL_WIDTH,
              height: THUMBNAIL_HEIGHT,
              bondLineWidth: 1,
              padding: 0.05,
            }),
          ),
        ),
      );
      return svg !== null && svg.length <= THUMBNAIL_MAX_BYTES ? svg : null;
    },
    onBits: (smiles) =>
      withMol(smiles, (mol) => {
        const text = mol.get_morgan_fp?.(MORGAN_OPTIONS) ?? "";
        const bits: number[] = [];
        for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 49) bits.push(i);
        return bits;
      }),
  };
}

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
      return compactSvg(
        mol.get_svg_with_highlights(JSON.stringify({ atoms: [...atoms], width: 260, height: 180 })),
      );
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
