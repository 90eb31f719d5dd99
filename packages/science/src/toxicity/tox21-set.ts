/** The 12 Tox21 Data Challenge 2014 assays in MoleculeNet's column order. */
export const TOX21_TASKS = [
  "NR-AR",
  "NR-AR-LBD",
  "NR-AhR",
  "NR-Aromatase",
  "NR-ER",
  "NR-ER-LBD",
  "NR-PPAR-gamma",
  "SR-ARE",
  "SR-ATAD5",
  "SR-HSE",
  "SR-MMP",
  "SR-p53",
] as const;

export type Tox21Task = (typeof TOX21_TASKS)[number];

export interface Tox21Row {
  readonly smiles: string;
  /** 1 active, 0 inactive, null not tested (a blank cell). */
  readonly labels: readonly (0 | 1 | null)[];
}

/** Parses MoleculeNet's `tox21.csv`: `smiles` then the 12 assays in {@link TOX21_TASKS} order. */
export function parseTox21(text: string): Tox21Row[] {
  const [header = "", ...lines] = text.split(/\r?\n/).filter((line) => line.trim() !== "");
  const columns = header.split(",");
  if (columns.slice(1, 13).join() !== TOX21_TASKS.join()) throw new Error("tox21.csv: unexpected columns");
  return lines.map((line) => {
    const [smiles = "", ...cells] = line.split(",");
    return {
      smiles,
      labels: TOX21_TASKS.map((_, i) => {
        const cell = (cells[i] ?? "").trim();
        return cell === "" ? null : Number(cell) >= 0.5 ? 1 : 0;
      }),
    };
  });
}
