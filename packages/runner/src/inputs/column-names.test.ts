import assert from "node:assert/strict";
import { test } from "node:test";
import { locatePortfolioColumns, normaliseColumnName } from "./column-names.ts";

test("a header name is compared in lower case, every run of punctuation or space one underscore", () => {
  assert.equal(normaliseColumnName("Smiles (canonical)"), "smiles_canonical");
  assert.equal(normaliseColumnName("\uFEFFCompound ID"), "compound_id");
  assert.equal(normaliseColumnName("Molecule ChEMBL ID"), "molecule_chembl_id");
  assert.equal(normaliseColumnName("IC50 (µM)"), "ic50_µm");
  assert.equal(normaliseColumnName("  pChEMBL-Value "), "pchembl_value");
});

test("the structure, id and name columns are found under the names chemists write", () => {
  const cases: [string[], { smiles: number; id: number; name: number }][] = [
    [["Smiles (canonical)", "Compound ID"], { smiles: 0, id: 1, name: -1 }],
    [["SMILES", "ID", "Name"], { smiles: 0, id: 1, name: 2 }],
    [["canonical_smiles", "compound_id"], { smiles: 0, id: 1, name: -1 }],
    [["Canonical SMILES", "Molecule ChEMBL ID", "Molecule Name"], { smiles: 0, id: 1, name: 2 }],
    [["structure", "Cmpd ID", "Compound Name"], { smiles: 0, id: 1, name: 2 }],
    [["IsomericSMILES", "CID", "Title"], { smiles: 0, id: 1, name: 2 }],
  ];
  for (const [header, expected] of cases)
    assert.deepEqual(locatePortfolioColumns(header), expected, header.join());
});

test("the most specific synonym wins when a header holds several; the rest stay metadata", () => {
  // `smiles` before `structure`, `candidate_id` before `id`.
  assert.deepEqual(locatePortfolioColumns(["structure", "id", "SMILES", "Candidate ID"]), {
    smiles: 2,
    id: 3,
    name: -1,
  });
  assert.deepEqual(locatePortfolioColumns(["formula", "mw"]), { smiles: -1, id: -1, name: -1 });
});
