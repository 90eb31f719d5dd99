import { readDataFile } from "../data/read-data-file.ts";

/** One compound of the ChEMBL series CHEMBL2321810 with its activity, as RDKit's FreeWilson Contrib ships it. */
export interface SeriesCompound {
  readonly chemblId: string;
  readonly smiles: string;
  /** `Act` of the series file (a pIC50-like log unit). */
  readonly activity: number;
}

/** Joins `chembl2321810.smi` (SMILES and id) with `chembl2321810-act.csv` (id, activity). */
export function chemblSeries(): SeriesCompound[] {
  const activity = new Map(
    readDataFile("chembl2321810-act.csv")
      .split(/\r?\n/)
      .slice(1)
      .filter((line) => line.trim() !== "")
      .map((line) => {
        const [id = "", act = ""] = line.split(",");
        return [id.trim(), Number(act)] as const;
      }),
  );
  return readDataFile("chembl2321810.smi")
    .split(/\r?\n/)
    .filter((line) => line.trim() !== "")
    .map((line) => {
      const [smiles = "", id = ""] = line.trim().split(/\s+/);
      const act = activity.get(id);
      if (act === undefined || Number.isNaN(act)) throw new Error(`chembl2321810: no activity for ${id}`);
      return { chemblId: id, smiles, activity: act };
    });
}
