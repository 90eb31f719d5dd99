import assert from "node:assert/strict";
import { test } from "node:test";
import { hasSmilesSyntax, SCREEN_ROWS, screenSmiles } from "./smiles-screen.ts";

test("SMILES syntax: atoms, brackets, bonds, branches, rings and components pass; words and junk do not", () => {
  for (const smiles of [
    "CN(Cc1cnc2nc(N)nc(N)c2n1)c1ccc(cc1)C(=O)N[C@@H](CCC(=O)O)C(=O)O",
    "[Na+].[Cl-]",
    "C1CC", // a ring left open is RDKit's to refuse, not the syntax screen's
    "F/C=C/F",
    "c1ccc2c(c1)%10CC%10",
    "CCO ethanol", // a name after white space
    "*C(=O)O",
  ])
    assert.ok(hasSmilesSyntax(smiles), smiles);
  for (const junk of ["", "lorem ipsum", "not-a-molecule", "aGVsbG8gd29ybGQ=", "C(C", "CC)", "12345", "{}"])
    assert.equal(hasSmilesSyntax(junk), false, junk);
});

test("the screen looks at the first rows only and keeps three short examples", () => {
  const rows = Array.from({ length: SCREEN_ROWS + 50 }, (_, index) => ({
    line: index + 2,
    text: index % 2 === 0 ? "CCO" : `junk ${"x".repeat(60)}`,
  }));
  const screen = screenSmiles(rows);
  assert.equal(screen.looked, SCREEN_ROWS);
  assert.equal(screen.failed, SCREEN_ROWS / 2);
  assert.deepEqual(
    screen.examples.map((example) => example.line),
    [3, 5, 7],
  );
  assert.equal(screen.examples[0]?.text, `junk ${"x".repeat(35)}…`);
});
