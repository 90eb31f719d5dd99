import assert from "node:assert/strict";
import { test } from "node:test";
import {
  fractionNear,
  OVERLAP_FRACTION,
  OVERLAP_RADIUS_ANGSTROM,
  PointIndex,
  rankBySize,
  transientOverlap,
} from "./cavity-overlap.ts";
import type { Vec3 } from "./vec3.ts";

/** A line of points 1 Å apart along x from `x0`, at height `y`. */
const line = (x0: number, count: number, y = 0): Vec3[] =>
  Array.from({ length: count }, (_, i) => [x0 + i, y, 0] as Vec3);

test("a point index answers 'within r' at exactly r and not just past it, across cell borders", () => {
  const index = new PointIndex([[0, 0, 0]], 2);
  assert.equal(index.anyWithin([2, 0, 0]), true);
  assert.equal(index.anyWithin([-1.1, 1.1, 1.1]), true);
  assert.equal(index.anyWithin([2.001, 0, 0]), false);
  assert.equal(index.anyWithin([1.5, 1.5, 0]), false);
});

test("fractionNear is the share of points within the radius, and 0 for no points", () => {
  const index = new PointIndex(line(0, 5), OVERLAP_RADIUS_ANGSTROM);
  // x = 3..12: 3, 4, 5, 6 lie within 2 Å of a point of 0..4 (6 is exactly 2 Å from 4).
  assert.equal(fractionNear(line(3, 10), index), 0.4);
  assert.equal(fractionNear([], index), 0);
});

test("a conformer cavity is transient under 30 % overlap with the crystal cavities and not at 30 %", () => {
  const crystal = new PointIndex(line(0, 10), OVERLAP_RADIUS_ANGSTROM);
  // 10 points, x = 9..18: 9, 10, 11 are within 2 Å of the crystal line (0..9): 30 %, the same cavity.
  const shared = transientOverlap(line(9, 10), crystal);
  assert.equal(shared.overlap, OVERLAP_FRACTION);
  assert.equal(shared.transient, false);
  // x = 10..19: 10, 11 within 2 Å: 20 %, transient.
  const shifted = transientOverlap(line(10, 10), crystal);
  assert.equal(shifted.overlap, 0.2);
  assert.equal(shifted.transient, true);
  // Far away (10 Å off the line): no overlap at all.
  assert.deepEqual(transientOverlap(line(0, 10, 10), crystal), { transient: true, overlap: 0 });
});

test("cavities rank by size, larger first, ties broken by the summed grid value", () => {
  const order = rankBySize([{ values: [1, 1] }, { values: [5, 5, 5] }, { values: [3, 3] }, { values: [9] }]);
  assert.deepEqual(order, [1, 2, 0, 3]);
});
