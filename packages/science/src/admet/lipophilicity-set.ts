/** One compound of AstraZeneca's logD7.4 set as MoleculeNet distributes it (`data/lipo.csv`). */
export interface LipophilicityCompound {
  readonly smiles: string;
  /** Measured octanol/buffer distribution coefficient at pH 7.4 (log D). */
  readonly logd: number;
}

/** Parses `smiles,lipo` rows (no quoted fields in this file). */
export function parseLipophilicity(text: string): LipophilicityCompound[] {
  return text
    .split(/\r?\n/)
    .slice(1)
    .filter((line) => line.trim() !== "")
    .map((line) => {
      const comma = line.lastIndexOf(",");
      return { smiles: line.slice(0, comma), logd: Number(line.slice(comma + 1)) };
    });
}

/** BBBP rows (`data/bbbp.csv`, `smiles,p_np`): SMILES and the penetrating (1) / not (0) label. */
export function parseBbbp(text: string): { smiles: string; penetrant: boolean }[] {
  return text
    .split(/\r?\n/)
    .slice(1)
    .filter((line) => line.trim() !== "")
    .map((line) => {
      const comma = line.lastIndexOf(",");
      return { smiles: line.slice(0, comma), penetrant: line.slice(comma + 1).trim() === "1" };
    });
}
