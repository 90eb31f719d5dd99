import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { readDataFile } from "../data/read-data-file.ts";
import { proteinChains, selectCalphas } from "./amino-acids.ts";
import { parseMmcif } from "./parse-mmcif.ts";
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
      serial: 1,
      hetero: false,
      name: "CA",
      altLoc: "",
      resName: "ALA",
      chain: "A",
      resSeq: 10,
      iCode: "",
      position: [11.104, 6.134, -6.504],
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

  it("keeps one location per atom: the blank one, or the first the file gives (A, or B when there is no A), in PDB and mmCIF alike", () => {
    const pdb = [
      "ATOM      1  CA AALA A  10       1.000   0.000   0.000  0.60 10.00           C",
      "ATOM      2  CA BALA A  10       2.000   0.000   0.000  0.40 10.00           C",
      "ATOM      3  CB BSER A  11       3.000   0.000   0.000  0.50 10.00           C",
      "ATOM      4  CB CSER A  11       4.000   0.000   0.000  0.50 10.00           C",
      "ATOM      5  N   GLY A  12       5.000   0.000   0.000  1.00 10.00           N",
    ].join("\n");
    const cif = [
      "data_x",
      "loop_",
      "_atom_site.group_PDB",
      "_atom_site.id",
      "_atom_site.type_symbol",
      "_atom_site.label_atom_id",
      "_atom_site.label_alt_id",
      "_atom_site.label_comp_id",
      "_atom_site.auth_asym_id",
      "_atom_site.auth_seq_id",
      "_atom_site.Cartn_x",
      "_atom_site.Cartn_y",
      "_atom_site.Cartn_z",
      "ATOM 1 C CA A ALA A 10 1 0 0",
      "ATOM 2 C CA B ALA A 10 2 0 0",
      "ATOM 3 C CB B SER A 11 3 0 0",
      "ATOM 4 C CB C SER A 11 4 0 0",
      "ATOM 5 N N . GLY A 12 5 0 0",
    ].join("\n");
    for (const structure of [parsePdb(pdb), parseMmcif(cif)])
      assert.deepEqual(
        structure.atoms.map((atom) => [atom.serial, atom.altLoc, atom.position[0]]),
        [
          [1, "A", 1],
          [3, "B", 3],
          [5, "", 5],
        ],
        structure.format,
      );
  });

  it("reads a PDBQT atom's element from its AutoDock type, and infers a missing PDB element from the atom name", () => {
    const pdbqt = [
      "ATOM      1  CA  PHE A  10       1.000   2.000   3.000  1.00  0.00     0.180 C ",
      "ATOM      2  CZ  PHE A  10       1.000   2.000   3.000  1.00  0.00     0.000 A ",
      "ATOM      3  OG  SER A  11       1.000   2.000   3.000  1.00  0.00    -0.398 OA",
      "ATOM      4  HG  SER A  11       1.000   2.000   3.000  1.00  0.00     0.209 HD",
      "HETATM    5 ZN    ZN A 301       1.000   2.000   3.000  1.00  0.00     2.000 Zn",
    ].join("\n");
    assert.deepEqual(
      parsePdb(pdbqt, "pdbqt").atoms.map((atom) => atom.element),
      ["C", "C", "O", "H", "ZN"],
    );
    const bare = parsePdb(
      [
        "ATOM      1  OG  SER A  11       1.000   2.000   3.000",
        "ATOM      2 1HB  SER A  11       1.000   2.000   3.000",
      ].join("\n"),
    );
    assert.deepEqual(
      bare.atoms.map((atom) => [atom.element, atom.occupancy, atom.bFactor]),
      [
        ["O", 1, 0],
        ["H", 1, 0],
      ],
    );
  });
});
