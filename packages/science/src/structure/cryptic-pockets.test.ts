import assert from "node:assert/strict";
import { test } from "node:test";
import { atDockingPocket, concavityInput, crypticHint, liningResidues } from "./cryptic-pockets.ts";
import { parsePdb } from "./parse-pdb.ts";
import type { ParsedStructure, StructureAtom } from "./structure-atom.ts";

const atom = (over: Partial<StructureAtom>): StructureAtom => ({
  serial: 1,
  hetero: false,
  name: "CA",
  altLoc: "",
  resName: "ALA",
  chain: "A",
  resSeq: 1,
  iCode: "",
  position: [0, 0, 0],
  occupancy: 1,
  bFactor: 0,
  element: "C",
  ...over,
});

test("ConCavity's input keeps the protein's heavy atoms only, renames chain IDs longer than one column, and labels each atom as the staged file does", () => {
  const structure: ParsedStructure = {
    format: "mmcif",
    atoms: [
      atom({ chain: "AA", resSeq: 5, position: [1, 2, 3] }),
      atom({ chain: "AA", resSeq: 5, name: "HA", element: "H" }),
      atom({ chain: "AB", resSeq: 5, resName: "GLY", position: [4, 5, 6] }),
      atom({ hetero: true, resName: "HOH", name: "O", element: "O", chain: "AA", resSeq: 900 }),
    ],
  };
  const input = concavityInput(structure);
  assert.equal(input.ok, true);
  if (!input.ok) return;
  assert.deepEqual(input.labels, ["ALA:AA:5", "GLY:AB:5"]);
  const written = parsePdb(input.text).atoms;
  // Two chains that one column would have cut to the same "A" stay two chains.
  assert.deepEqual(
    written.map((a) => [a.chain, a.resName, a.resSeq, a.position]),
    [
      ["A", "ALA", 5, [1, 2, 3]],
      ["B", "GLY", 5, [4, 5, 6]],
    ],
  );
});

test("a residue number past PDB's four columns is a reason, not a number cut into another residue's", () => {
  const input = concavityInput({ format: "mmcif", atoms: [atom({ resSeq: 12345 })] });
  assert.deepEqual(input, { ok: false, reason: "residue number 12345 does not fit PDB's four columns" });
});

test("a residue lines a cavity when one of its atoms is within 4 Å of a point, named once, in file order", () => {
  const lining = liningResidues(
    [
      [0, 0, 0],
      [0, 0, 4],
      [0, 0, 5.5],
      [0, 3, 1],
    ],
    ["ALA:A:1", "ALA:A:1", "GLY:A:2", "SER:B:3"],
    [[0, 0, 1]],
  );
  // GLY's atom is 4.5 Å from the point; SER's 3 Å.
  assert.deepEqual(lining, ["ALA:A:1", "SER:B:3"]);
  assert.deepEqual(liningResidues([[0, 0, 0]], ["ALA:A:1"], [[0, 0, 4.5]]), []);
});

test("a cavity is at the docking pocket with a point within 4 Å of a ligand heavy atom or inside the box, and null without a pocket", () => {
  const points: [number, number, number][] = [[0, 0, 0]];
  assert.equal(atDockingPocket(points, { kind: "ligand", label: "L", atoms: [[0, 0, 4]] }), true);
  assert.equal(atDockingPocket(points, { kind: "ligand", label: "L", atoms: [[0, 0, 4.1]] }), false);
  assert.equal(atDockingPocket(points, { kind: "box", box: { center: [1, 1, 1], size: [2, 2, 2] } }), true);
  assert.equal(atDockingPocket(points, { kind: "box", box: { center: [5, 5, 5], size: [2, 2, 2] } }), false);
  assert.equal(atDockingPocket(points, null), null);
});

test("a transient cavity's wording names the modes that open it and says it is a hint, not evidence", () => {
  assert.equal(
    crypticHint([2]),
    "a cavity that opens along normal mode 2 in an elastic network model: a hint for where a pocket may open, not evidence that it does",
  );
  assert.match(
    crypticHint([1, 3]),
    /^a cavity that opens along normal modes 1, 3 in an elastic network model: a hint/,
  );
});
