import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { CodedError } from "@svc/core";
import { ScaffoldError } from "./scaffold/murcko-scaffold.ts";
import { SCIENCE_ERRORS, ScienceError } from "./science-error.ts";
import { LigandReadError } from "./structure/interactions/read-ligand.ts";
import { StructureParseError } from "./structure/structure-atom.ts";
import { StructureError } from "./structure/structure-error.ts";
import { FragmentTableError } from "./synthesis/fragment-scores.ts";
import { UnsupportedBondError } from "./synthesis/molecule-graph.ts";
import { UnknownIsotopeError } from "./synthesis/morgan-invariants.ts";

test("the README's error table lists exactly SCIENCE_ERRORS, code and meaning", () => {
  const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
  const section = readme.slice(readme.indexOf("## Errors"));
  const rows = [...section.matchAll(/^\| `([A-Z0-9_]+)` \| (.+) \|$/gm)].map((m) => [m[1], m[2]]);
  assert.deepEqual(rows, Object.entries(SCIENCE_ERRORS));
});

test("every science error class is a ScienceError on CodedError, named, with a code of SCIENCE_ERRORS (issue 41 item 3)", () => {
  const cause = new Error("RDKit said no");
  const errors = [
    new StructureParseError(12, "atom coordinates are not numbers"),
    new StructureError("STRUCTURE_BOX_INVALID", "box edge 0 Å is empty"),
    new LigandReadError("LIGAND_NOT_3D", "no 3D coordinates", { cause }),
    new ScaffoldError("RDKit refused the scaffold graph"),
    new UnsupportedBondError("bond order 9"),
    new FragmentTableError("magic missing"),
    new UnknownIsotopeError("isotope 300 of element 6"),
  ];
  for (const error of errors) {
    assert.ok(error instanceof ScienceError && error instanceof CodedError, error.name);
    assert.ok(error.code in SCIENCE_ERRORS, `${error.name}: ${error.code}`);
    assert.equal(error.name, error.constructor.name);
  }
  assert.deepEqual(
    errors.map((error) => error.code),
    [
      "STRUCTURE_UNPARSEABLE",
      "STRUCTURE_BOX_INVALID",
      "LIGAND_NOT_3D",
      "SCAFFOLD_UNBUILDABLE",
      "SA_UNSUPPORTED_BOND",
      "SA_FRAGMENT_TABLE_INVALID",
      "SA_UNKNOWN_ISOTOPE",
    ],
  );
  assert.equal(errors[0]?.message, "line 12: atom coordinates are not numbers");
  assert.equal((errors[0] as StructureParseError).line, 12);
  assert.equal(errors[1]?.message, "STRUCTURE_BOX_INVALID: box edge 0 Å is empty");
  assert.equal(errors[2]?.cause, cause);
});
