/** One compound of the external solubility check (`data/huuskonen-external-solubility.csv`). */
export interface ExternalSolubilityCompound {
  readonly name: string;
  readonly smiles: string;
  /** Measured log S (mol/L). */
  readonly logS: number;
}

/**
 * Parses the CSV `scripts/extract-huuskonen-external.py` writes: name, SMILES, log S. A name may be
 * quoted and hold commas; SMILES and log S never do, so they are read from the right.
 */
export function parseExternalSolubilityCsv(text: string): ExternalSolubilityCompound[] {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== "");
  return lines.slice(1).map((line) => {
    const fields = line.split(",");
    return {
      name: fields.slice(0, -2).join(",").replace(/^"|"$/g, "").replaceAll('""', '"'),
      smiles: (fields.at(-2) ?? "").trim(),
      logS: Number(fields.at(-1)),
    };
  });
}
