import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { assertNativeInCi, NATIVE_PYTHON, nativeMissing } from "../../test/support/native-rdkit.ts";
import { readDataFile } from "../data/read-data-file.ts";
import { readScaffoldSplits, scaffoldSplit } from "./scaffold-splits.ts";

const script = fileURLToPath(new URL("../../scripts/scaffold-split.py", import.meta.url));

assertNativeInCi();
test("native RDKit's MurckoScaffold regenerates the checked-in scaffold split row for row", {
  skip: nativeMissing ?? false,
}, () => {
  const regenerated = execFileSync(NATIVE_PYTHON, [script, "--stdout"], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  assert.deepEqual(JSON.parse(regenerated), readScaffoldSplits());
});

test("the split is MoleculeNet's 80/10/10 by whole scaffold groups, of the data files as checked in", () => {
  const file = readScaffoldSplits();
  for (const [name, split] of Object.entries(file.datasets)) {
    const bytes = readFileSync(new URL(`../../data/${name}`, import.meta.url));
    assert.equal(createHash("sha256").update(bytes).digest("hex"), split.sha256, `${name} changed`);
    assert.equal(split.row_split.length, split.rows);
    assert.equal(split.train + split.valid + split.test, split.parsed);
    // Greedy whole groups: train never passes 80%, train + valid never passes 90%.
    assert.ok(split.train <= 0.8 * split.parsed && split.train > 0.78 * split.parsed, `${name} train`);
    assert.ok(split.train + split.valid <= 0.9 * split.parsed, `${name} valid`);
    assert.ok(split.scaffolds < split.parsed, "molecules share scaffolds");
  }
  const bbbp = scaffoldSplit("bbbp.csv");
  assert.equal(bbbp.length, readDataFile("bbbp.csv").trim().split("\n").length - 1);
  assert.equal(bbbp.filter((p) => p === "test").length, file.datasets["bbbp.csv"].test);
});
