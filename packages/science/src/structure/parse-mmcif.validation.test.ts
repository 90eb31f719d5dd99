import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { readDataFile } from "../data/read-data-file.ts";
import { selectCalphas } from "./amino-acids.ts";
import { parseMmcif } from "./parse-mmcif.ts";
import { parsePdb } from "./parse-pdb.ts";

const obabelMissing = spawnSync("obabel", ["-V"]).status === 0 ? null : "Debian openbabel is not installed";
if (obabelMissing !== null && process.env.CI === "true") throw new Error(obabelMissing);

const CIF = `data_TEST
#
loop_
_atom_site.group_PDB
_atom_site.id
_atom_site.type_symbol
_atom_site.label_atom_id
_atom_site.label_alt_id
_atom_site.label_comp_id
_atom_site.label_asym_id
_atom_site.label_seq_id
_atom_site.pdbx_PDB_ins_code
_atom_site.Cartn_x
_atom_site.Cartn_y
_atom_site.Cartn_z
_atom_site.occupancy
_atom_site.B_iso_or_equiv
_atom_site.auth_seq_id
_atom_site.auth_asym_id
_atom_site.pdbx_PDB_model_num
ATOM   1 C CA  . ALA A 1 ? 11.104 6.134 -6.504 1.00 12.50 10 B 1
HETATM 2 C "C1'" . STI C . ? 12.000 7.000 -5.000 0.50 30.00 201 B 1
ATOM   3 C CA  . ALA A 1 ? 99.000 99.000 99.000 1.00 12.50 10 B 2
#
_other.key value
`;

describe("mmCIF reader", () => {
  it("reads the _atom_site loop with author numbering, quoted names and missing values, first model only", () => {
    const { atoms } = parseMmcif(CIF);
    assert.equal(atoms.length, 2);
    assert.deepEqual(
      atoms.map((atom) => [
        atom.hetero,
        atom.name,
        atom.resName,
        atom.chain,
        atom.resSeq,
        atom.iCode,
        atom.position[0],
        atom.bFactor,
      ]),
      [
        [false, "CA", "ALA", "B", 10, "", 11.104, 12.5],
        [true, "C1'", "STI", "B", 201, "", 12, 30],
      ],
    );
  });

  it("refuses a file without an _atom_site loop and a row with too few values", () => {
    assert.throws(() => parseMmcif("data_X\n_cell.length_a 10\n"), /no _atom_site loop/);
    assert.throws(
      () =>
        parseMmcif(
          "data_X\nloop_\n_atom_site.id\n_atom_site.Cartn_x\n_atom_site.Cartn_y\n_atom_site.Cartn_z\n1 2 3\n#\nloop_\n",
        ),
      /line 7: _atom_site row has 3 values, the loop has 4 columns/,
    );
  });

  it("gives the same Cα atoms as the PDB reader on Open Babel's mmCIF of a PoseBusters receptor", {
    skip: obabelMissing ?? false,
  }, () => {
    const pdbPath = fileURLToPath(new URL("../../data/1s3v_protein_one_lig_removed.pdb", import.meta.url));
    const cif = execFileSync("obabel", ["-ipdb", pdbPath, "-ommcif"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
    const fromCif = selectCalphas(parseMmcif(cif));
    const fromPdb = selectCalphas(parsePdb(readDataFile("1s3v_protein_one_lig_removed.pdb")));
    assert.equal(fromCif.length, fromPdb.length);
    fromCif.forEach((atom, at) => {
      const pdb = fromPdb[at];
      assert.equal(atom.resName, pdb?.resName);
      assert.deepEqual(atom.position, pdb?.position);
    });
  });
});
