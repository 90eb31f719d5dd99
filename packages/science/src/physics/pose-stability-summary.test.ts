import assert from "node:assert/strict";
import { test } from "node:test";
import { interactionOccupancy, summariseRmsd } from "./pose-stability-summary.ts";

test("summariseRmsd gives the mean, maximum, last value and the fraction of frames within 2 Å (2.0 itself counts as within)", () => {
  const summary = summariseRmsd([0.5, 1.5, 2.0, 3.0]);
  assert.deepEqual(summary, {
    frames: 4,
    mean_angstrom: 1.75,
    max_angstrom: 3,
    final_angstrom: 3,
    fraction_within: 0.75,
    within_angstrom: 2,
  });
});

test("summariseRmsd refuses an empty series or a non-finite value instead of reporting a stable pose", () => {
  assert.equal(summariseRmsd([]), null);
  assert.equal(summariseRmsd([0.4, Number.NaN]), null);
  assert.equal(summariseRmsd([0.4, Number.POSITIVE_INFINITY]), null);
});

test("summariseRmsd honours another threshold", () => {
  assert.equal(summariseRmsd([0.5, 1.5, 2.5], 1)?.fraction_within, 0.333);
});

test("interactionOccupancy counts, per interaction of the docked pose, the frames that keep it; interactions new in the run are not listed", () => {
  const frames = [
    new Set(["hbond|A:27:ASP|3|false", "hydrophobic|A:5:ILE|7"]),
    new Set(["hbond|A:27:ASP|3|false"]),
    new Set(["salt_bridge|A:57:ARG|1|true"]),
    new Set<string>(),
  ];
  assert.deepEqual(
    interactionOccupancy(
      ["hbond|A:27:ASP|3|false", "hydrophobic|A:5:ILE|7", "hbond|A:27:ASP|3|false"],
      frames,
    ),
    [
      { key: "hbond|A:27:ASP|3|false", occupancy: 0.5 },
      { key: "hydrophobic|A:5:ILE|7", occupancy: 0.25 },
    ],
  );
});

test("interactionOccupancy of a trajectory without frames is 0 for every interaction, not a division by zero", () => {
  assert.deepEqual(interactionOccupancy(["a"], []), [{ key: "a", occupancy: 0 }]);
});
