import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { assertNativeInCi, NATIVE_PYTHON, nativeMissing } from "../../test/support/native-rdkit.ts";
import { readDataFile } from "../data/read-data-file.ts";
import { parseBrenkCsv } from "./brenk-catalog.ts";

describe("Brenk alert file", () => {
  it("parses quoted SMARTS with commas and an empty max_count as no maximum, and rejects a bad line", () => {
    const [alert] = parseBrenkCsv('name,smarts,min_count,max_count\nacid_halide,"C(=O)[Cl,Br,I,F]",1,\n');
    assert.deepEqual(alert, {
      name: "acid_halide",
      smarts: "C(=O)[Cl,Br,I,F]",
      minCount: 1,
      maxCount: Number.POSITIVE_INFINITY,
    });
    assert.throws(() => parseBrenkCsv("name,smarts,min_count,max_count\nx,,1,\n"), /unexpected Brenk line/);
    assert.throws(() => parseBrenkCsv("a,b\n"), /unexpected Brenk header/);
  });

  assertNativeInCi();
  it("the checked-in file is what the extraction script makes of native RDKit's FilterCatalog BRENK", {
    skip: nativeMissing ?? false,
  }, () => {
    // The script also proves each regenerated SMARTS matches as the compiled query on NCI first_5K.
    const script = fileURLToPath(new URL("../../scripts/extract-brenk-alerts.py", import.meta.url));
    const regenerated = execFileSync(NATIVE_PYTHON, [script, "-"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
    assert.equal(regenerated, readDataFile("brenk-alerts.csv"), "regenerate data/brenk-alerts.csv");
  });
});
