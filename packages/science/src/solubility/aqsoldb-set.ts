/** One compound of AqSolDB as the project received it (`data/aqsoldb-train.csv`). */
export interface AqSolDbCompound {
  readonly id: string;
  readonly name: string;
  readonly smiles: string;
  /** log S (mol/L), the curated value of the merged sources. */
  readonly logS: number;
  /** Reliability group: G1 one measurement, G3–G5 several within 0.5, 0.5–1, > 1 log units (Sorkun et al. 2019). */
  readonly group: string;
}

/**
 * Parses the CSV (`ID,Name,InChIKey,SMILES,Solubility,SD,Ocurrences,Group`). Names may hold quoted
 * commas and the other columns never do, so the ID is read from the left and the rest from the right.
 */
export function parseAqSolDbCsv(text: string): AqSolDbCompound[] {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== "");
  const header = lines[0] ?? "";
  if (header.trim() !== "ID,Name,InChIKey,SMILES,Solubility,SD,Ocurrences,Group")
    throw new Error(`aqsoldb: unexpected header ${header}`);
  return lines.slice(1).map((line) => {
    const fields = line.split(",");
    const at = (fromEnd: number) => fields[fields.length - fromEnd] ?? "";
    return {
      id: fields[0] ?? "",
      name: fields
        .slice(1, fields.length - 6)
        .join(",")
        .replace(/^"|"$/g, ""),
      smiles: at(5).trim(),
      logS: Number(at(4)),
      group: at(1).trim(),
    };
  });
}
