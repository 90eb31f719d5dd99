import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { type MolfileMolecule, parseSdf, withoutHydrogens } from "./molfile.ts";
import { parsePdb } from "./parse-pdb.ts";
import { pocketBoxFromLigand } from "./pocket-box.ts";
import { checkPose, type PoseCheckName } from "./pose-checks.ts";
import type { Vec3 } from "./vec3.ts";

// PoseBusters' own fixtures (test/fixtures/posebusters/PROVENANCE.md). What they hold, read first:
// mol_065_{ideal,left,right} are one 40-heavy-atom ligand in three conformers, atom for atom; 1ia1 is
// DHFR with its crystal ligand TQ3; mol_1a30_clash_2 is a ligand alone (its clash in PoseBusters'
// tests is with the 1A30 protein, which is not shared: alone it has no internal clash, shown below).
const FIXTURES = new URL("../../test/fixtures/posebusters/", import.meta.url);
const ligand = (file: string): MolfileMolecule =>
  withoutHydrogens(parseSdf(readFileSync(new URL(file, FIXTURES), "utf8"))[0] as MolfileMolecule);
const dhfr = parsePdb(
  readFileSync(new URL("1ia1/1ia1_protein_one_lig_removed.pdb", FIXTURES), "utf8"),
).atoms.filter((atom) => atom.resName !== "TQ3");
const tq3 = ligand("1ia1/1ia1_ligand.sdf");

const failed = (result: ReturnType<typeof checkPose>): PoseCheckName[] =>
  result.checks.filter((check) => !check.passed).map((check) => check.name);

function moved(molecule: MolfileMolecule, shift: (position: Vec3, index: number) => Vec3): MolfileMolecule {
  return {
    ...molecule,
    atoms: molecule.atoms.map((atom, index) => ({ ...atom, position: shift(atom.position, index) })),
  };
}

test("the crystal pose of TQ3 in DHFR (1ia1) passes every check, against its receptor and its own box", () => {
  const result = checkPose({
    pose: tq3,
    reference: tq3,
    receptor: dhfr,
    box: pocketBoxFromLigand(tq3.atoms.map((a) => a.position)),
  });
  assert.deepEqual(
    result.checks.map((check) => check.name),
    ["bond_lengths", "bond_angles", "internal_steric_clash", "minimum_distance_to_protein", "inside_box"],
  );
  assert.equal(result.passed, true, JSON.stringify(result.checks));
});

test("two other conformers of PoseBusters' mol_065 keep the ideal conformer's bond lengths and angles within 25%", () => {
  const ideal = ligand("pose-checks/mol_065_ideal.sdf");
  for (const file of ["pose-checks/mol_065_left.sdf", "pose-checks/mol_065_right.sdf"]) {
    assert.deepEqual(failed(checkPose({ pose: ligand(file), reference: ideal })), [], file);
  }
});

test("mol_1a30_clash_2 alone has no internal clash (its PoseBusters clash is with a protein not shared)", () => {
  const pose = ligand("pose-checks/mol_1a30_clash_2.sdf");
  assert.deepEqual(failed(checkPose({ pose, reference: pose })), []);
});

test("a bond stretched by 40% fails bond_lengths", () => {
  const bond = tq3.bonds[0] as { a: number; b: number };
  const [a, b] = [tq3.atoms[bond.a]?.position as Vec3, tq3.atoms[bond.b]?.position as Vec3];
  const stretched = moved(tq3, (p, index) =>
    index === bond.b
      ? [a[0] + (b[0] - a[0]) * 1.4, a[1] + (b[1] - a[1]) * 1.4, a[2] + (b[2] - a[2]) * 1.4]
      : p,
  );
  const names = failed(checkPose({ pose: stretched, reference: tq3 }));
  assert.ok(names.includes("bond_lengths"), names.join());
});

test("an atom placed 1 Å from an atom more than three bonds away fails internal_steric_clash only", () => {
  const pose = ligand("pose-checks/mol_065_ideal.sdf");
  // Atoms 0 and 16 of mol_065 are more than three bonds apart. The moved pose is its own reference,
  // so only the clash can fail.
  const target = pose.atoms[0]?.position as Vec3;
  const far = 16;
  const source = pose.atoms[far]?.position as Vec3;
  const clashing = moved(pose, (p, index) => (index === far ? [target[0] + 1, target[1], target[2]] : p));
  const result = checkPose({ pose: clashing, reference: clashing });
  assert.deepEqual(failed(result), ["internal_steric_clash"], JSON.stringify(result.checks));
  assert.notDeepEqual(source, clashing.atoms[far]?.position);
});

test("TQ3 shifted so its first atom sits on a DHFR heavy atom fails minimum_distance_to_protein and nothing else", () => {
  const start = tq3.atoms[0]?.position as Vec3;
  const onto = (dhfr.find((atom) => atom.element === "C")?.position ?? [0, 0, 0]) as Vec3;
  const shifted = moved(tq3, (p) => [
    p[0] + onto[0] - start[0],
    p[1] + onto[1] - start[1],
    p[2] + onto[2] - start[2],
  ]);
  assert.deepEqual(failed(checkPose({ pose: shifted, reference: tq3, receptor: dhfr })), [
    "minimum_distance_to_protein",
  ]);
});

test("TQ3 moved 20 Å out of its box fails inside_box", () => {
  const box = pocketBoxFromLigand(tq3.atoms.map((atom) => atom.position));
  const outside = moved(tq3, (p) => [p[0] + 20, p[1], p[2]]);
  assert.deepEqual(failed(checkPose({ pose: outside, reference: tq3, box })), ["inside_box"]);
});

test("a pose whose atom count differs from the reference's is refused, not checked", () => {
  assert.throws(() => checkPose({ pose: tq3, reference: ligand("pose-checks/mol_065_ideal.sdf") }), /atoms/);
});
