import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { readDataFile } from "../data/read-data-file.ts";
import { proteinChains, selectCalphas } from "./amino-acids.ts";
import { parsePdb } from "./parse-pdb.ts";

describe("PDB reader", () => {
  it("reads ATOM and HETATM records by their columns, first model only", () => {
    const text = [
      "HEADER    TEST",
      "MODEL        1",
      "ATOM      1  CA  ALA A  10      11.104   6.134  -6.504  1.00 12.50           C",
      "HETATM    2  C1  STI A 201      12.000   7.000  -5.000  0.50 30.00           C",
      "ENDMDL",
      "MODEL        2",
      "ATOM      1  CA  ALA A  10      99.000  99.000  99.000  1.00 12.50           C",
      "ENDMDL",
    ].join("\n");
    const { atoms } = parsePdb(text);
    assert.equal(atoms.length, 2);
    assert.deepEqual(atoms[0], {
      hetero: false,
      name: "CA",
      altLoc: "",
      resName: "ALA",
      chain: "A",
      resSeq: 10,
      iCode: "",
      x: 11.104,
      y: 6.134,
      z: -6.504,
      occupancy: 1,
      bFactor: 12.5,
      element: "C",
    });
    assert.equal(atoms[1]?.hetero, true);
    assert.equal(atoms[1]?.resName, "STI");
  });

  it("refuses a coordinate that is not a number, naming the line, and a file without atoms", () => {
    assert.throws(
      () =>
        parsePdb("REMARK\nATOM      1  CA  ALA A  10      11.104   xx.xx  -6.504  1.00 12.50           C"),
      /line 2: y \(columns 39-46\) is not a number/,
    );
    assert.throws(() => parsePdb("this is not a structure\n"), /no ATOM or HETATM record/);
  });

  it("finds ProDy's Cα set and the protein chains in a PoseBusters receptor", () => {
    const structure = parsePdb(readDataFile("1s3v_protein_one_lig_removed.pdb"));
    assert.equal(selectCalphas(structure).length, 186);
    assert.deepEqual(proteinChains(structure), ["A"]);
  });

  it("does not count a calcium ion (atom CA of residue CA) as a Cα", () => {
    const structure = parsePdb(
      "HETATM    1 CA    CA A 301       1.000   2.000   3.000  1.00 20.00          CA",
    );
    assert.equal(selectCalphas(structure).length, 0);
  });
});
