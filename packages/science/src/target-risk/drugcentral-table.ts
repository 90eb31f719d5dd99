import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import type { CompoundRow } from "../compound-row.ts";
import { compoundOnBits } from "../fingerprint/parent-fingerprint.ts";
import { releaseParentMol, withParentMol } from "../parent/with-parent-mol.ts";
import { prepareCompound } from "../prepare-compound.ts";
import type { RDKit } from "../rdkit.ts";
import { murckoScaffoldSmiles } from "../scaffold/murcko-scaffold.ts";
import { splitCsvLine } from "../toxicity/nibr-catalog.ts";
import { DRUGCENTRAL_SOURCE_FILE } from "./drugcentral-index.ts";

/**
 * The checked-in DrugCentral 2023 table (structures, approval lists, UniProt targets; CC BY-SA 4.0,
 * data/PROVENANCE.md) as the scripts that derive the DrugCentral indexes read it: one reader, so
 * target_biology_risk's safety index and offtarget_screening's target index see the same drugs.
 */
export interface DrugCentralTable {
  readonly rows: readonly Readonly<Record<string, string>>[];
  /** sha256 of the gzipped file as checked in. */
  readonly sha256: string;
}

export function readDrugCentralTable(): DrugCentralTable {
  const gz = readFileSync(new URL(`../../data/${DRUGCENTRAL_SOURCE_FILE}`, import.meta.url));
  const lines = gunzipSync(gz)
    .toString("utf8")
    .split(/\r?\n/)
    .filter((line) => line !== "");
  const header = splitCsvLine(lines[0] ?? "");
  const rows = lines.slice(1).map((line) => {
    const fields = splitCsvLine(line);
    return Object.fromEntries(header.map((name, at) => [name, fields[at] ?? ""]));
  });
  return { rows, sha256: createHash("sha256").update(gz).digest("hex") };
}

/** A DrugCentral row RDKit prepared, featurised as a run's compound is. */
export interface PreparedDrug {
  readonly row: Readonly<Record<string, string>>;
  readonly struct_id: number;
  /** DrugCentral's INN. */
  readonly name: string;
  /** Approval lists naming it: FDA, EMA, PMDA (empty: in none of the three). */
  readonly approvals: readonly string[];
  /**
   * UniProt accessions of its DrugCentral targets, in the table's order; a complex ("Q01668|Q13936")
   * gives each member accession.
   */
  readonly accessions: readonly string[];
  /** Morgan radius-2, 2,048-bit on-bits of the charge-neutral parent (compoundOnBits). */
  readonly onBits: readonly number[];
  /** Bemis–Murcko scaffold of the parent, the key of the scaffold split. */
  readonly scaffold: string;
}

/**
 * Every row RDKit prepares, through prepareCompound (salts stripped, charge-neutral parent) and
 * compoundOnBits, so the indexes and a run's compounds are fingerprinted identically. Rows RDKit
 * refuses are left out.
 */
export function prepareDrugCentral(rdkit: RDKit, rows: DrugCentralTable["rows"]): PreparedDrug[] {
  const drugs: PreparedDrug[] = [];
  for (const [at, row] of rows.entries()) {
    const input: CompoundRow = {
      index: at + 1,
      line: at + 2,
      candidateId: row.struct_id ?? "",
      name: row.INN ?? null,
      smiles: row.SMILES ?? "",
      metadata: {},
    };
    const compound = prepareCompound(rdkit, input);
    if (!compound.ok) continue;
    const onBits = compoundOnBits(compound);
    const scaffold = withParentMol(compound, (mol, kit) => {
      try {
        return murckoScaffoldSmiles(kit, mol);
      } catch {
        // An unbuildable scaffold is its own group: it cannot share a scaffold with anything.
        return `unbuildable:${row.struct_id}`;
      }
    });
    releaseParentMol();
    drugs.push({
      row,
      struct_id: Number(row.struct_id),
      name: row.INN ?? "",
      approvals: [
        ["FDA", row.in_FDA_Approved_csv],
        ["EMA", row.in_EMA_Approved_csv],
        ["PMDA", row.in_PMDA_Approved_csv],
      ].flatMap(([list, flag]) => (flag === "1" ? [list as string] : [])),
      accessions: (row.target_accessions ?? "").split(/[;|]/).filter((a) => a !== ""),
      onBits,
      scaffold,
    });
  }
  return drugs;
}
