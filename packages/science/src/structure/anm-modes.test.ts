import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { readDataFile } from "../data/read-data-file.ts";
import { pearson } from "../numeric/pearson.ts";
import { selectCalphas } from "./amino-acids.ts";
import { buildAnmHessian, multiplyHessian } from "./anm-hessian.ts";
import { computeNormalModes, rigidBodyBasis, squareFluctuations } from "./anm-modes.ts";
import { parsePdb } from "./parse-pdb.ts";
import type { Vec3 } from "./vec3.ts";

const nodes = selectCalphas(parsePdb(readDataFile("1s3v_protein_one_lig_removed.pdb"))).map(
  (atom) => atom.position,
);

describe("ANM normal modes: only the modes needed (shift-invert block Lanczos) against every mode (dense)", () => {
  const hessian = buildAnmHessian(nodes, 15, 1);
  const lanczos = computeNormalModes(hessian, 20, "lanczos");
  const dense = computeNormalModes(hessian, 20, "dense");

  it("the 20 lowest non-zero eigenvalues agree to 1e-9 relative and the square fluctuations to r > 0.999999 (1s3v, 186 Cα)", () => {
    assert.equal(lanczos.solver, "lanczos");
    assert.equal(dense.solver, "dense");
    assert.equal(lanczos.zeroModes, 6);
    assert.equal(dense.zeroModes, 6);
    assert.equal(lanczos.eigenvalues.length, 20);
    lanczos.eigenvalues.forEach((value, k) => {
      const reference = dense.eigenvalues[k] as number;
      assert.ok(Math.abs(value - reference) / reference < 1e-9, `mode ${k + 1}: ${value} vs ${reference}`);
    });
    const r =
      pearson(squareFluctuations(lanczos, nodes.length), squareFluctuations(dense, nodes.length)) ?? 0;
    assert.ok(r > 0.999999, `r = ${r}`);
  });

  it("each Lanczos mode is a unit eigenvector: ‖H v − λ v‖ < 1e-8", () => {
    lanczos.vectors.forEach((vector, k) => {
      const image = multiplyHessian(hessian, vector);
      let residual = 0;
      let norm = 0;
      vector.forEach((x, at) => {
        residual += ((image[at] as number) - (lanczos.eigenvalues[k] as number) * x) ** 2;
        norm += x * x;
      });
      assert.ok(Math.sqrt(residual) < 1e-8, `mode ${k + 1}: residual ${Math.sqrt(residual)}`);
      assert.ok(Math.abs(norm - 1) < 1e-12);
    });
  });

  it("is deterministic: the seeded start block gives the same vectors on every run", () => {
    assert.deepEqual(computeNormalModes(hessian, 20, "lanczos").vectors, lanczos.vectors);
  });

  it("the rigid-body basis is orthonormal and H maps it to zero", () => {
    const basis = rigidBodyBasis(hessian);
    assert.equal(basis.length, 6);
    basis.forEach((v, a) => {
      const image = multiplyHessian(hessian, v);
      assert.ok(Math.sqrt(image.reduce((sum, x) => sum + x * x, 0)) < 1e-10);
      basis.forEach((u, b) => {
        const d = u.reduce((sum, x, at) => sum + x * (v[at] as number), 0);
        assert.ok(Math.abs(d - (a === b ? 1 : 0)) < 1e-12);
      });
    });
  });

  it("two copies out of each other's reach: 12 zero modes and every eigenvalue of one copy twice (block Lanczos finds repeated modes)", () => {
    const copy = nodes.map((p): Vec3 => [p[0] + 200, p[1], p[2]]);
    const pair = computeNormalModes(buildAnmHessian([...nodes, ...copy], 15, 1), 20, "lanczos");
    assert.equal(pair.zeroModes, 12);
    pair.eigenvalues.forEach((value, k) => {
      const single = dense.eigenvalues[Math.floor(k / 2)] as number;
      assert.ok(Math.abs(value - single) / single < 1e-9, `mode ${k + 1}: ${value} vs ${single}`);
    });
  });
});
