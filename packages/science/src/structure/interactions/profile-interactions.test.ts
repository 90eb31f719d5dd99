import assert from "node:assert/strict";
import { test } from "node:test";
import type { StructureAtom } from "../structure-atom.ts";
import type { Vec3 } from "../vec3.ts";
import type { LigandStructure } from "./complex-structure.ts";
import { profileInteractions } from "./profile-interactions.ts";

function atom(serial: number, name: string, element: string, resName: string, position: Vec3): StructureAtom {
  return {
    serial,
    name,
    altLoc: "",
    element,
    resName,
    resSeq: 10,
    iCode: "",
    chain: "A",
    hetero: resName === "ZN",
    position,
    occupancy: 1,
    bFactor: 0,
  };
}

// Chloromethane's C–Cl along x; no fixture has a halogen or metal contact, so these geometries are built.
const chloromethane: LigandStructure = {
  atoms: [
    { index: 0, element: "C", charge: 0, aromatic: false, position: [0, 0, 0] },
    { index: 1, element: "CL", charge: 0, aromatic: false, position: [1.77, 0, 0] },
  ],
  bonds: [{ begin: 0, end: 1, order: 1, aromatic: false }],
  rings: [],
};

/** A glycine whose carbonyl O sits 3.2 Å beyond the chlorine, with the C=O at `acceptorAngle` to O···Cl. */
function glycineFacing(acceptorAngle: number): StructureAtom[] {
  const o: Vec3 = [4.97, 0, 0];
  const rad = (acceptorAngle * Math.PI) / 180;
  const u: Vec3 = [-Math.cos(rad), Math.sin(rad), 0];
  const c: Vec3 = [o[0] + 1.23 * u[0], o[1] + 1.23 * u[1], 0];
  const ca: Vec3 = [c[0] + 1.52 * u[0], c[1] + 1.52 * u[1], 0.3];
  const n: Vec3 = [ca[0] + 1.46 * u[0], ca[1] + 1.46 * u[1], 1.2];
  return [
    atom(1, "N", "N", "GLY", n),
    atom(2, "CA", "C", "GLY", ca),
    atom(3, "C", "C", "GLY", c),
    atom(4, "O", "O", "GLY", o),
  ];
}

test("a C–Cl pointing at a carbonyl O 3.2 Å away at 120° is a halogen bond; at 170° at the acceptor it is not", () => {
  const bonds = profileInteractions(glycineFacing(120), chloromethane).interactions.filter(
    (i) => i.type === "halogen_bond",
  );
  assert.equal(bonds.length, 1);
  const [bond] = bonds;
  assert.ok(bond?.type === "halogen_bond");
  assert.deepEqual(bond.ligandAtoms, [1]);
  assert.deepEqual(bond.receptorAtoms, [4]);
  assert.ok(Math.abs(bond.distance - 3.2) < 1e-9);
  assert.ok(Math.abs(bond.acceptorAngle - 120) < 1e-6);
  assert.ok(Math.abs(bond.donorAngle - 180) < 1e-6);
  const outside = profileInteractions(glycineFacing(170), chloromethane).interactions;
  assert.equal(outside.filter((i) => i.type === "halogen_bond").length, 0);
});

test("a receptor zinc 2.07 Å from a ligand oxygen is metal coordination; at 3.1 Å it is not", () => {
  const methanol: LigandStructure = {
    atoms: [
      { index: 0, element: "C", charge: 0, aromatic: false, position: [0, 0, 0] },
      { index: 1, element: "O", charge: 0, aromatic: false, position: [1.43, 0, 0] },
    ],
    bonds: [{ begin: 0, end: 1, order: 1, aromatic: false }],
    rings: [],
  };
  const near = profileInteractions([atom(9, "ZN", "ZN", "ZN", [3.5, 0, 0])], methanol).interactions;
  assert.deepEqual(
    near.map((i) => [i.type, i.ligandAtoms, i.receptorAtoms]),
    [["metal_complex", [1], [9]]],
  );
  const far = profileInteractions([atom(9, "ZN", "ZN", "ZN", [4.53, 0, 0])], methanol).interactions;
  assert.equal(far.length, 0);
});
