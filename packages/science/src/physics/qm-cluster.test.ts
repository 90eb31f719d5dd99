import assert from "node:assert/strict";
import { test } from "node:test";
import { electronCountProblem } from "./electron-count.ts";
import {
  buildCluster,
  CAP_BOND_ANGSTROM,
  type ClusterLigand,
  type ClusterReceptor,
  capsOf,
  pocketChargeOf,
  selectPocketResidues,
} from "./qm-cluster.ts";

type Xyz = [number, number, number];

/**
 * A toy chain of three residues along x, 3.8 Å apart, each N at x, CA at x + 1.2, C at x + 2.4
 * (the glycine with one hydrogen on its CA, so each residue's electron count at its charge is even);
 * peptide bonds C(i)–N(i+1) (1.4 Å), and a fourth residue, a cysteine's S bonded to the glycine's CA
 * (a cut at S). Charges as ff14SB sums print them.
 */
function chain(): ClusterReceptor {
  return {
    symbols: ["N", "C", "C", "N", "C", "C", "H", "N", "C", "C", "S"],
    coordinates: [
      [0, 0, 0],
      [1.2, 0, 0],
      [2.4, 0, 0],
      [3.8, 0, 0],
      [5, 0, 0],
      [6.2, 0, 0],
      [5, -1, 0],
      [7.6, 0, 0],
      [8.8, 0, 0],
      [10, 0, 0],
      [5, 2.05, 0],
    ],
    residues: [
      { name: "ASP", chain: "A", number: 1, first: 0, count: 3, charge: -0.9999 },
      { name: "GLY", chain: "A", number: 2, first: 3, count: 4, charge: 0.0001 },
      { name: "LYS", chain: "A", number: 3, first: 7, count: 3, charge: 1.0002 },
      { name: "CYX", chain: "A", number: 4, first: 10, count: 1, charge: 0 },
    ],
    bonds: [
      [2, 3],
      [5, 7],
      [10, 4],
    ],
  };
}

const ligandAt = (heavy: Xyz, hydrogen: Xyz, charge = 0): ClusterLigand => ({
  symbols: ["C", "H"],
  coordinates: [heavy, hydrogen],
  formal_charge: charge,
});

const norm = (a: readonly number[], b: readonly number[]) =>
  Math.hypot((a[0] ?? 0) - (b[0] ?? 0), (a[1] ?? 0) - (b[1] ?? 0), (a[2] ?? 0) - (b[2] ?? 0));

test("the pocket is every whole residue with an atom within 4.5 Å of a ligand heavy atom; a residue within reach of a ligand hydrogen only, or at 4.6 Å, is not selected", () => {
  const receptor = chain();
  // Heavy atom 4.4 Å above residue 2's N (x 3.8): residue 2 in; residue 1's C (x 2.4) is 4.6 Å away, out.
  const near = ligandAt([3.8, 0, 4.4], [3.8, 0, 1]);
  assert.deepEqual(selectPocketResidues(receptor, near), [1]);
  // A hydrogen 1 Å from residue 3's last C (x 10) does not select it; its heavy atom 4.6 Å away selects none, 4.5 Å selects it.
  const farHeavy = ligandAt([10, 0, 4.6], [10, 0, 1]);
  assert.deepEqual(selectPocketResidues(receptor, farHeavy), []);
  assert.deepEqual(selectPocketResidues(receptor, ligandAt([10, 0, 4.5], [10, 0, 1])), [2]);
});

test("a cut peptide bond is capped with a hydrogen on the bond, 1.09 Å from the selected residue's C and 1.01 Å from its N; bonds inside the selection are not cut", () => {
  const receptor = chain();
  const caps = capsOf(receptor, [1]);
  assert.equal(caps.length, 3, "residue 2's N–C(1), C–N(3) and the S–CA cut");
  const toPrevious = caps.find((cap) => cap.inside === 3);
  const toNext = caps.find((cap) => cap.inside === 5);
  assert.ok(toPrevious !== undefined && toNext !== undefined);
  // N of residue 2 at x 3.8, bonded to C of residue 1 at x 2.4: the cap at x 3.8 − 1.01, on the axis.
  assert.ok(norm(toPrevious.coordinates, [3.8 - CAP_BOND_ANGSTROM.N, 0, 0]) < 1e-9);
  assert.equal(CAP_BOND_ANGSTROM.N, 1.01);
  // C of residue 2 at x 6.2, bonded to N of residue 3 at x 7.6: the cap at x 6.2 + 1.09.
  assert.ok(norm(toNext.coordinates, [6.2 + CAP_BOND_ANGSTROM.C, 0, 0]) < 1e-9);
  assert.equal(CAP_BOND_ANGSTROM.C, 1.09);
  // Residues 1–3 together: only the bond to the cysteine is cut.
  assert.deepEqual(
    capsOf(receptor, [0, 1, 2]).map((cap) => [cap.inside, cap.outside]),
    [[4, 10]],
  );
});

test("a cut bond at sulfur is capped at 1.34 Å along the bond, off any axis: the cap lies on the segment towards the removed atom", () => {
  const receptor = chain();
  const [cap] = capsOf(receptor, [3]);
  assert.ok(cap !== undefined);
  assert.equal(cap.inside, 10);
  const s = receptor.coordinates[10] as Xyz;
  const c = receptor.coordinates[4] as Xyz;
  assert.ok(Math.abs(norm(cap.coordinates, s) - 1.34) < 1e-9);
  assert.ok(Math.abs(norm(cap.coordinates, s) + norm(cap.coordinates, c) - norm(s, c)) < 1e-9, "collinear");
});

test("a cut at an element with no cap length is refused with the atom named, and the cluster is not built", () => {
  const receptor = { ...chain(), symbols: chain().symbols.map((symbol, i) => (i === 3 ? "O" : symbol)) };
  assert.throws(() => capsOf(receptor, [1]), /a cut bond at O \(atom 3\)/);
  const built = buildCluster(receptor, ligandAt([3.8, 0, 4.4], [3.8, 0, 3.4]));
  assert.deepEqual(built, { ok: false, reason: "a cut bond at O (atom 3): no hydrogen cap length for it" });
});

test("the pocket's charge is the sum of its residues' ff14SB charges each rounded, and the complex's adds the ligand's formal charge; a non-integer residue charge is named", () => {
  const receptor = chain();
  assert.deepEqual(pocketChargeOf(receptor, [0, 1, 2]), { ok: true, charge: 0 });
  assert.deepEqual(pocketChargeOf(receptor, [0, 1]), { ok: true, charge: -1 });
  assert.deepEqual(pocketChargeOf(receptor, [2]), { ok: true, charge: 1 });
  const odd = {
    ...receptor,
    residues: receptor.residues.map((r, i) => (i === 1 ? { ...r, charge: 0.37 } : r)),
  };
  const refused = pocketChargeOf(odd, [0, 1]);
  assert.equal(refused.ok, false);
  assert.match(refused.ok ? "" : refused.reason, /GLY:A:2 has a non-integer ff14SB net charge \(0\.37\)/);
  // A ligand (formal charge −1) over residues 2 and 3 (net +1): pocket +1, complex 0.
  const built = buildCluster(receptor, ligandAt([8, 0, 3.5], [8, 0, 4.5], -1));
  assert.ok(built.ok);
  if (!built.ok) return;
  assert.deepEqual(built.cluster.residues, ["GLY:A:2", "LYS:A:3"]);
  assert.equal(built.cluster.pocket.charge, 1);
  assert.equal(built.cluster.ligand.charge, -1);
  assert.equal(built.cluster.complex.charge, 0);
});

test("the complex is the pocket's atoms with their caps, then the ligand's atoms, on the same coordinates", () => {
  const receptor = chain();
  const built = buildCluster(receptor, ligandAt([8, 0, 3.5], [8, 0, 4.5], -1));
  assert.ok(built.ok);
  if (!built.ok) return;
  const { pocket, ligand, complex, caps } = built.cluster;
  assert.equal(caps, 2, "the glycine's N–C(1) and its CA–S");
  assert.deepEqual(pocket.symbols, ["N", "C", "C", "H", "N", "C", "C", "H", "H"]);
  assert.deepEqual(complex.symbols, [...pocket.symbols, ...ligand.symbols]);
  assert.deepEqual(complex.coordinates, [...pocket.coordinates, ...ligand.coordinates]);
  assert.deepEqual(pocket.coordinates.slice(0, 7), receptor.coordinates.slice(3, 10));
});

test("a ligand with no residue within the cutoff is not in the pocket: no cluster", () => {
  const built = buildCluster(chain(), ligandAt([0, 30, 0], [0, 31, 0]));
  assert.deepEqual(built, {
    ok: false,
    reason: "no receptor residue within 4.5 Å of the ligand: not in the pocket",
  });
});

test("a geometry whose charge leaves an odd electron count is refused before any GFN2 run (a pose that lost a formal charge), and so is an element outside the model", () => {
  const methyl = { symbols: ["C", "H", "H", "H"], coordinates: [], charge: 0 };
  assert.equal(electronCountProblem({ ...methyl, charge: 1 }), null, "CH3+ has 8 electrons");
  assert.equal(electronCountProblem(methyl), "an odd electron count (9) at charge 0");
  assert.match(String(electronCountProblem({ symbols: ["Zn"], coordinates: [], charge: 2 })), /element Zn/);
  // A carboxylate-bearing ligand written without its charge: C, O, O, H with charge 0 is odd.
  const built = buildCluster(chain(), {
    symbols: ["C", "O", "O", "H"],
    coordinates: [
      [8, 0, 3.5],
      [8, 1.2, 3.5],
      [8, -1.2, 3.5],
      [8, 0, 4.5],
    ],
    formal_charge: 0,
  });
  assert.deepEqual(built, {
    ok: false,
    reason: "the ligand is not a closed shell: an odd electron count (23) at charge 0",
  });
});
