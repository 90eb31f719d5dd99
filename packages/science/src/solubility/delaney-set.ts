/** One compound of Delaney's set as MoleculeNet distributes it (`data/delaney-processed.csv`). */
export interface DelaneyCompound {
  readonly name: string;
  readonly smiles: string;
  /** Measured log S (mol/L). */
  readonly measured: number;
  /** The paper's own ESOL prediction. */
  readonly paperEsol: number;
}

/**
 * Parses the CSV. Names may hold quoted commas, the nine other columns never do, so fields are
 * read from the right: SMILES last, measured log S before it, the paper's ESOL ninth from the end.
 */
export function parseDelaneyCsv(text: string): DelaneyCompound[] {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== "");
  return lines.slice(1).map((line) => {
    const fields = line.split(",");
    const at = (fromEnd: number) => fields[fields.length - fromEnd] ?? "";
    return {
      name: fields
        .slice(0, fields.length - 9)
        .join(",")
        .replace(/^"|"$/g, ""),
      smiles: at(1).trim(),
      measured: Number(at(2)),
      paperEsol: Number(at(9)),
    };
  });
}
