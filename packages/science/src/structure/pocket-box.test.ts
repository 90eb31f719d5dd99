import assert from "node:assert/strict";
import { test } from "node:test";
import {
  isInsideBox,
  POCKET_BOX_MIN_SIZE,
  POCKET_BOX_PADDING,
  pocketBoxFromCenterSize,
  pocketBoxFromLigand,
} from "./pocket-box.ts";
import { StructureError } from "./structure-error.ts";
import type { Vec3 } from "./vec3.ts";

test("a reference ligand's box is its bounding box plus 4 Å a side, centred on it, each edge at least 15 Å", () => {
  const atoms: Vec3[] = [
    [0, 0, 0],
    [20, 2, 0],
    [10, 1, 3],
  ];
  const box = pocketBoxFromLigand(atoms);
  assert.equal(POCKET_BOX_PADDING, 4);
  assert.deepEqual(box.center, [10, 1, 1.5]);
  assert.deepEqual(box.size, [28, POCKET_BOX_MIN_SIZE, POCKET_BOX_MIN_SIZE]);
  assert.equal(box.source, "reference_ligand");
  assert.ok(atoms.every((atom) => isInsideBox(atom, box)));
  assert.deepEqual(pocketBoxFromLigand(atoms, { padding: 2, minSize: 1 }).size, [24, 6, 7]);
});

test("an explicit box is kept as given, and an empty, over-40-Å or non-finite one is refused with STRUCTURE_BOX_INVALID", () => {
  assert.deepEqual(pocketBoxFromCenterSize([1, 2, 3], [20, 20, 20]).center, [1, 2, 3]);
  for (const size of [
    [0, 10, 10],
    [10, 41, 10],
    [10, 10, Number.NaN],
  ] as Vec3[]) {
    assert.throws(
      () => pocketBoxFromCenterSize([0, 0, 0], size),
      (error: unknown) => error instanceof StructureError && error.code === "STRUCTURE_BOX_INVALID",
    );
  }
  assert.throws(() => pocketBoxFromLigand([]), StructureError);
});

test("a point on the box's face is inside, a point just past it is not", () => {
  const box = pocketBoxFromCenterSize([0, 0, 0], [10, 10, 10]);
  assert.equal(isInsideBox([5, 0, 0], box), true);
  assert.equal(isInsideBox([5.01, 0, 0], box), false);
});
