/**
 * How a header name written by a chemist is matched (issue 37 item 6): one table of synonyms for
 * the portfolio's structure, id and name columns, used by the runner's readers and by
 * `svc project init` (exported from the package entry), so both accept the same headers.
 */

/**
 * A header name as names are compared: a byte-order mark dropped, lower case, and every run of
 * characters other than letters and digits turned into one `_`, none at either end. So
 * "Smiles (canonical)" reads `smiles_canonical`, "pChEMBL Value" `pchembl_value`, "Molecule
 * ChEMBL ID" `molecule_chembl_id` and "IC50 (µM)" `ic50_µm` (µ is a letter).
 */
export function normaliseColumnName(name: string): string {
  return name
    .replace(/^\uFEFF/, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "_")
    .replace(/^_+|_+$/g, "");
}

/**
 * The portfolio's columns and the names each is known by, in normalised form, most specific
 * first: the first one a header holds wins, the others stay metadata. Spellings from ChEMBL's
 * exports ("Smiles", "Molecule ChEMBL ID", "Molecule Name"), PubChem's (`CanonicalSMILES`,
 * `IsomericSMILES`, `CID`), RDKit's and DataWarrior's tables and medicinal chemists' own sheets.
 */
export const PORTFOLIO_COLUMNS = {
  smiles: [
    "smiles",
    "canonical_smiles",
    "smiles_canonical",
    "canonicalsmiles",
    "isomeric_smiles",
    "smiles_isomeric",
    "isomericsmiles",
    "smiles_string",
    "mol_smiles",
    "molecule_smiles",
    "compound_smiles",
    "parent_smiles",
    "structure_smiles",
    "smi",
    "structure",
  ],
  id: [
    "candidate_id",
    "compound_id",
    "id",
    "molecule_chembl_id",
    "chembl_id",
    "cmpd_id",
    "compound_identifier",
    "molecule_id",
    "mol_id",
    "cid",
    "registry_id",
    "reg_id",
    "corporate_id",
    "compound_number",
    "compound_no",
    "compound",
  ],
  name: ["name", "compound_name", "molecule_name", "pref_name", "drug_name", "common_name", "title"],
} as const satisfies Record<string, readonly string[]>;

/** The portfolio column names the runner writes and documents (`portfolio_selected.csv`). */
export const CANONICAL_PORTFOLIO_COLUMNS = { smiles: "smiles", id: "candidate_id", name: "name" } as const;

/** The index of the first of `aliases` (normalised names) that `header` holds, or -1. */
export function findColumn(header: readonly string[], aliases: readonly string[]): number {
  const normal = header.map(normaliseColumnName);
  for (const alias of aliases) {
    const at = normal.indexOf(alias);
    if (at >= 0) return at;
  }
  return -1;
}

/** Where a portfolio table's structure, id and name columns stand (-1: absent). */
export interface PortfolioColumns {
  readonly smiles: number;
  readonly id: number;
  readonly name: number;
}

/** Locates {@link PORTFOLIO_COLUMNS} in a header. */
export function locatePortfolioColumns(header: readonly string[]): PortfolioColumns {
  return {
    smiles: findColumn(header, PORTFOLIO_COLUMNS.smiles),
    id: findColumn(header, PORTFOLIO_COLUMNS.id),
    name: findColumn(header, PORTFOLIO_COLUMNS.name),
  };
}

/** The names a refusal lists for a missing structure column (the first few synonyms). */
export function structureColumnHint(): string {
  return `"smiles" (or ${PORTFOLIO_COLUMNS.smiles
    .slice(1, 6)
    .map((name) => `"${name}"`)
    .join(", ")}, … in any letter case and punctuation)`;
}
