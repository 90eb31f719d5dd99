import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { readDataFile } from "../data/read-data-file.ts";
import { selectCalphas } from "./amino-acids.ts";
import { buildAnmHessian, denseHessian, multiplyHessian, networkComponents } from "./anm-hessian.ts";
import { parsePdb } from "./parse-pdb.ts";
import type { Vec3 } from "./vec3.ts";

/** Every pair tested, dense (Atilgan et al. 2001 eq. 4–5 as ProDy builds it): the reference for the cell list. */
function allPairsHessian(nodes: readonly Vec3[], cutoff: number, gamma: number): Float64Array {
  const dof = 3 * nodes.length;
  const hessian = new Float64Array(dof * dof);
  for (let i = 0; i < nodes.length; i++)
    for (let j = i + 1; j < nodes.length; j++) {
      const a = nodes[i] as Vec3;
      const b = nodes[j] as Vec3;
      const r = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
      const d2 = (r[0] as number) ** 2 + (r[1] as number) ** 2 + (r[2] as number) ** 2;
      if (d2 > cutoff * cutoff) continue;
      for (let p = 0; p < 3; p++)
        for (let q = 0; q < 3; q++) {
          const k = (-gamma * (r[p] as number) * (r[q] as number)) / d2;
          hessian[(3 * i + p) * dof + 3 * j + q] = k;
          hessian[(3 * j + p) * dof + 3 * i + q] = k;
          hessian[(3 * i + p) * dof + 3 * i + q] = (hessian[(3 * i + p) * dof + 3 * i + q] as number) - k;
          hessian[(3 * j + p) * dof + 3 * j + q] = (hessian[(3 * j + p) * dof + 3 * j + q] as number) - k;
        }
    }
  return hessian;
}

describe("the sparse ANM Hessian", () => {
  const nodes = selectCalphas(parsePdb(readDataFile("1IA1_TQ3_no_ligand_no_solvent.pdb"))).map(
    (atom) => atom.position,
  );
  const hessian = buildAnmHessian(nodes, 15, 1);

  it("the cell list finds every pair within 15 Å: equal to the all-pairs Hessian entry by entry (1IA1, 384 Cα)", () => {
    const reference = allPairsHessian(nodes, 15, 1);
    const dense = denseHessian(hessian);
    let worst = 0;
    reference.forEach((value, at) => {
      worst = Math.max(worst, Math.abs(value - (dense[at] as number)));
    });
    assert.ok(worst < 1e-12, `largest difference ${worst}`);
  });

  it("multiplies a vector as the dense matrix does, and one connected network is one component", () => {
    const dof = 3 * nodes.length;
    const x = Float64Array.from({ length: dof }, (_, k) => Math.sin(k));
    const dense = denseHessian(hessian);
    const y = multiplyHessian(hessian, x);
    for (let i = 0; i < dof; i++) {
      let expected = 0;
      for (let j = 0; j < dof; j++) expected += (dense[i * dof + j] as number) * (x[j] as number);
      assert.ok(Math.abs(expected - (y[i] as number)) < 1e-10, `row ${i}`);
    }
    assert.deepEqual(new Set(networkComponents(hessian)), new Set([0]));
  });

  it("nodes farther apart than the cutoff are separate components with no spring", () => {
    const far = buildAnmHessian(
      [
        [0, 0, 0],
        [3.8, 0, 0],
        [100, 0, 0],
      ],
      15,
      1,
    );
    assert.deepEqual([...networkComponents(far)], [0, 0, 1]);
    assert.deepEqual([...far.rowStart], [0, 1, 2, 2]);
  });
});
