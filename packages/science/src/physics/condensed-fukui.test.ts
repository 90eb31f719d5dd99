import assert from "node:assert/strict";
import { test } from "node:test";
import { condensedFukui, electrophilicityIndex, largestAt } from "./condensed-fukui.ts";

test("condensed Fukui functions are the charge differences of Yang & Mortier, each summing to one electron", () => {
  // Charges of a neutral molecule (sum 0), its anion (sum −1) and its cation (sum +1).
  const neutral = [-0.2, 0.1, 0.1];
  const anion = [-0.5, -0.2, -0.3];
  const cation = [0.1, 0.4, 0.5];
  const f = condensedFukui(neutral, anion, cation);
  assert.ok(f !== null);
  assert.deepEqual(
    f.fPlus.map((x) => Number(x.toFixed(6))),
    [0.3, 0.3, 0.4],
  );
  assert.deepEqual(
    f.fMinus.map((x) => Number(x.toFixed(6))),
    [0.3, 0.3, 0.4],
  );
  const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
  assert.ok(Math.abs(sum(f.fPlus) - 1) < 1e-9 && Math.abs(sum(f.fMinus) - 1) < 1e-9);
  assert.equal(condensedFukui(neutral, anion.slice(1), cation), null, "atom counts must agree");
});

test("the electrophilicity index is μ²/2η: IP 10 eV and EA 0 give μ −5, η 10, ω 1.25 eV; no hardness, no index", () => {
  assert.equal(electrophilicityIndex(10, 0), 1.25);
  assert.equal(electrophilicityIndex(3, 3), null);
  assert.equal(electrophilicityIndex(2, 3), null);
});

test("the largest value is taken only among the atoms kept, first on ties", () => {
  assert.deepEqual(
    largestAt([0.5, 0.2, 0.2, 0.9], (atom) => atom !== 3),
    { atom: 0, value: 0.5 },
  );
  assert.deepEqual(
    largestAt([0.2, 0.2], () => true),
    { atom: 0, value: 0.2 },
  );
  assert.equal(
    largestAt([0.2], () => false),
    null,
  );
});
