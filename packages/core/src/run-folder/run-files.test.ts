import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { RUN_FILES, runPath, SEAL_FILES, WELL_KNOWN_RUN_DIRS } from "./run-files.ts";

const doc = readFileSync(
  join(import.meta.dirname, "..", "..", "..", "..", "docs", "contracts", "run-folder.md"),
  "utf8",
);

describe("run folder contract", () => {
  it("docs/contracts/run-folder.md's table names every RUN_FILES entry with its path, in order", () => {
    const start = doc.indexOf("## Files");
    const section = doc.slice(start, doc.indexOf("\n## ", start + 1));
    const rows = [...section.matchAll(/^\| `([A-Za-z]+)` \| `([^`]+)` \|/gm)].map((m) => [m[1], m[2]]);
    assert.deepEqual(rows, Object.entries(RUN_FILES));
  });

  it("every seal file has its run path, so the seal folder is named in the one table too", () => {
    const paths = new Set<string>(Object.values(RUN_FILES));
    for (const name of Object.values(SEAL_FILES))
      assert.ok(paths.has(`seal/${name}`) || paths.has(`seal/${name}/`), `seal/${name} in RUN_FILES`);
  });

  it("runPath fills each <name> part and drops a folder's trailing slash", () => {
    assert.equal(runPath("modulePlan", { run_id: "run-7" }), "plans/run-7_module_plan.json");
    assert.equal(runPath("pose", { index: 2, candidate: "CPD-1" }), "results/poses/structure-2/CPD-1.sdf");
    assert.equal(runPath("sealDir"), "seal");
    assert.equal(runPath("summary"), "results/summary.json");
  });

  it("runPath refuses a pattern whose part is not given, rather than writing <module> into a path", () => {
    assert.throws(
      () => (runPath as (key: string, parts: object) => string)("moduleRaw", {}),
      /<module> not given/,
    );
  });

  it("the well-known folders are results, thresholds, seal and repro_pack, in listing order (spec §2.3)", () => {
    assert.deepEqual([...WELL_KNOWN_RUN_DIRS], ["results", "thresholds", "seal", "repro_pack"]);
  });
});
