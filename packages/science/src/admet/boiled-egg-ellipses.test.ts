import assert from "node:assert/strict";
import { test } from "node:test";
import { BOILED_EGG, ellipseLevel, ellipseOutline } from "./boiled-egg.ts";

const HIA_ELLIPSE = BOILED_EGG.white;
const BBB_ELLIPSE = BOILED_EGG.yolk;

// Boundary points (TPSA, WLOGP) from the polygons in the Supporting Information of Daina & Zoete
// 2016 (ChemMedChem 11:1117), none of them among those the ellipses were fitted to (this check
// came with the report's drawing; the report now draws these same ellipses).
const HIA_BOUNDARY: ReadonlyArray<readonly [number, number]> = [
  [101.88198219217963, -2.1900004937640487],
  [131.3459397541782, -1.100296551937959],
  [141.84671061754818, 1.323158313066756],
  [119.13002428774791, 4.624897611343],
  [52.7026600654724, 6.836587588714733],
  [13.180173126598005, 5.872304629902357],
  [0.6708560104266521, 2.9853008263222423],
  [22.92470020991869, -0.03581660149508132],
];
const BBB_BOUNDARY: ReadonlyArray<readonly [number, number]> = [
  [48.58810520411346, 0.4711560951439837],
  [71.45445025654422, 1.4782257618719723],
  [78.31120168157305, 3.6162381180847065],
  [63.97131734877222, 5.267814979913747],
  [37.74279433303931, 5.9634109635090855],
  [9.743888527775118, 5.272621729438726],
  [-2.5973461151568977, 2.9269495872011797],
  [16.358604437196348, 0.8877486582794322],
];

test("the BOILED-Egg ellipses pass through the paper's published boundary points", () => {
  for (const [tpsa, wlogp] of HIA_BOUNDARY)
    assert.ok(Math.abs(ellipseLevel(HIA_ELLIPSE, tpsa, wlogp) - 1) < 0.01, `HIA ${tpsa},${wlogp}`);
  for (const [tpsa, wlogp] of BBB_BOUNDARY)
    assert.ok(Math.abs(ellipseLevel(BBB_ELLIPSE, tpsa, wlogp) - 1) < 0.01, `BBB ${tpsa},${wlogp}`);
});

test("the yolk's centre lies inside the white and the drawn outline is the boundary", () => {
  assert.ok(ellipseLevel(HIA_ELLIPSE, ...BBB_ELLIPSE.centre) < 1);
  for (const [tpsa, wlogp] of ellipseOutline(BBB_ELLIPSE, 24))
    assert.ok(Math.abs(ellipseLevel(BBB_ELLIPSE, tpsa, wlogp) - 1) < 1e-9);
  // Imatinib (TPSA 86.28, WLOGP 4.59): absorbed, not brain-penetrant, as SwissADME's egg shows it.
  assert.ok(ellipseLevel(HIA_ELLIPSE, 86.28, 4.59) < 1);
  assert.ok(ellipseLevel(BBB_ELLIPSE, 86.28, 4.59) > 1);
});
