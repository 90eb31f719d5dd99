import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { longestFirst, mergeFileCosts, slowestLines } from "./file-costs.ts";

describe("slow tiers start their files longest first (issue 41 item 4)", () => {
  it("orders by recorded time, unknown (new) files first, ties by name", () => {
    const costs = { "a.e2e.test.ts": 30, "b.e2e.test.ts": 600, "c.e2e.test.ts": 30 };
    assert.deepEqual(
      longestFirst(["a.e2e.test.ts", "b.e2e.test.ts", "c.e2e.test.ts", "new.e2e.test.ts"], costs),
      ["new.e2e.test.ts", "b.e2e.test.ts", "a.e2e.test.ts", "c.e2e.test.ts"],
    );
  });

  it("merges a run's times over the table, keeps other tiers' files, drops files that are gone, rounds to a second", () => {
    const merged = mergeFileCosts(
      { "gone.e2e.test.ts": 9, "x.validation.test.ts": 40, "y.e2e.test.ts": 12 },
      { "y.e2e.test.ts": 20.4, "z.e2e.test.ts": 3.6 },
      (file) => file !== "gone.e2e.test.ts",
    );
    assert.deepEqual(merged, { "x.validation.test.ts": 40, "y.e2e.test.ts": 20, "z.e2e.test.ts": 4 });
    assert.deepEqual(Object.keys(merged), ["x.validation.test.ts", "y.e2e.test.ts", "z.e2e.test.ts"]);
  });

  it("prints the slowest files first", () => {
    assert.deepEqual(slowestLines({ "a.ts": 5, "b.ts": 500.4, "c.ts": 50 }, 2), [
      "   500 s  b.ts",
      "    50 s  c.ts",
    ]);
  });
});
