import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { loadRDKit } from "../rdkit.ts";
import { parseSdf, readSdfCoordinates, splitSdf } from "./molfile.ts";

const FIXTURES = new URL("../../test/fixtures/posebusters/", import.meta.url);
const TQD = readFileSync(new URL("1s3v/1s3v_ligand.sdf", FIXTURES), "utf8");

describe("SD reader", () => {
  it("reads a V3000 record as the same atoms and bonds as the V2000 record RDKit wrote it from", async () => {
    const rdkit = await loadRDKit();
    const [v2000] = parseSdf(TQD);
    const mol = rdkit.get_mol(splitSdf(TQD)[0] ?? "", JSON.stringify({ removeHs: false }));
    assert.ok(mol !== null && v2000 !== undefined);
    const v3000Block = mol.get_v3Kmolblock();
    mol.delete();
    assert.match(v3000Block, /V3000/);
    const [v3000] = parseSdf(`${v3000Block}$$$$\n`);
    assert.equal(v3000?.atoms.length, 27);
    assert.deepEqual(
      v3000?.atoms.map((atom) => [atom.element, ...atom.position.map((value) => value.toFixed(3))]),
      v2000.atoms.map((atom) => [atom.element, ...atom.position.map((value) => value.toFixed(3))]),
    );
    const pairs = (bonds: readonly { a: number; b: number }[]) => bonds.map(({ a, b }) => [a, b]);
    assert.deepEqual(pairs(v3000?.bonds ?? []), pairs(v2000.bonds));
    assert.deepEqual(readSdfCoordinates(v3000Block), readSdfCoordinates(TQD));
  });

  it("joins a V3000 line continued with '-' and gives every record of a file in order", () => {
    const v3000 = [
      "pair",
      "  hand",
      "",
      "  0  0  0     0  0            999 V3000",
      "M  V30 BEGIN CTAB",
      "M  V30 COUNTS 3 2 0 0 0",
      "M  V30 BEGIN ATOM",
      "M  V30 1 C 0 0 0 0",
      "M  V30 2 O 1.2 0 -",
      "M  V30 0 0",
      "M  V30 3 H -1 0 0 0",
      "M  V30 END ATOM",
      "M  V30 BEGIN BOND",
      "M  V30 1 2 1 2",
      "M  V30 2 1 1 3",
      "M  V30 END BOND",
      "M  V30 END CTAB",
      "M  END",
      "> <id>",
      "x",
      "",
      "$$$$",
    ].join("\n");
    const molecules = parseSdf(`${v3000}\n${TQD}`);
    assert.deepEqual(
      molecules.map((molecule) => molecule.name),
      ["pair", "TQD"],
    );
    assert.deepEqual(molecules[0]?.atoms[1], { element: "O", position: [1.2, 0, 0] });
    assert.deepEqual(molecules[0]?.bonds, [
      { a: 0, b: 1, order: 2 },
      { a: 0, b: 2, order: 1 },
    ]);
    assert.deepEqual(readSdfCoordinates(v3000), [
      [0, 0, 0],
      [1.2, 0, 0],
    ]);
  });

  it("refuses a record whose atom block is shorter than its count, or a file without a heavy atom, naming why", () => {
    const lines = TQD.split("\n");
    assert.throws(
      () => parseSdf(lines.slice(0, 10).concat("M  END").join("\n")),
      /atom block shorter than its count/,
    );
    assert.throws(
      () =>
        readSdfCoordinates(
          "H2\n\n\n  1  0  0  0  0  0  0  0  0  0999 V2000\n    0.0000    0.0000    0.0000 H   0  0\nM  END\n",
        ),
      /no heavy atom/,
    );
    assert.throws(() => readSdfCoordinates("not a molecule"), /no molblock/);
  });
});
