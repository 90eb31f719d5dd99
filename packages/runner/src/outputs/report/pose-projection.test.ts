import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { parseSdf, type Vec3 } from "@svc/science/structure";
import { DOCKING_FIXTURE } from "../../../test/support/docking-report.ts";
import { principalFrame, renderPoseProjection } from "./pose-projection.ts";

test("the principal frame of a flat, elongated set of points is its long axis, its short axis and their normal", () => {
  const points: Vec3[] = [
    [-4, -1, 5],
    [4, 1, 5],
    [-4, 1, 5],
    [4, -1, 5],
    [0, 0, 5],
  ];
  const [u, v, w, centre] = principalFrame(points);
  assert.deepEqual(centre, [0, 0, 5]);
  assert.deepEqual(
    u.map((x) => Math.round(Math.abs(x) * 1e6) / 1e6),
    [1, 0, 0],
  );
  assert.deepEqual(
    v.map((x) => Math.round(Math.abs(x) * 1e6) / 1e6),
    [0, 1, 0],
  );
  assert.deepEqual(
    w.map((x) => Math.round(Math.abs(x) * 1e6) / 1e6),
    [0, 0, 1],
  );
});

test("a docked pose projects to an SVG with one two-coloured bond per ligand bond, the same drawing every time", async () => {
  const sdf = await readFile(
    join(DOCKING_FIXTURE, "results", "poses", "structure-0", "DHFR-009.sdf"),
    "utf8",
  );
  const [pose] = parseSdf(sdf);
  assert.ok(pose);
  const heavyBonds = pose.bonds.filter(
    (bond) => pose.atoms[bond.a]?.element !== "H" && pose.atoms[bond.b]?.element !== "H",
  ).length;
  const svg = renderPoseProjection(pose, [], "paracetamol");
  assert.equal(svg.match(/<line class="lig"/g)?.length, heavyBonds * 2);
  assert.equal(svg, renderPoseProjection(pose, [], "paracetamol"));
  assert.match(svg, /stroke="#e0102a"/, "oxygens in red");
});
