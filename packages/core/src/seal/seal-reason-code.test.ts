import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { REASON_PRIORITY, SEAL_REASON_CODES } from "./seal-reason-code.ts";

const readme = readFileSync(join(import.meta.dirname, "..", "..", "README.md"), "utf8");

describe("seal reason codes", () => {
  it("are documented in the core README table, each with its meaning, in priority order", () => {
    const start = readme.indexOf("### Reason codes");
    const section = readme.slice(start, readme.indexOf("\n## ", start));
    const rows = [...section.matchAll(/^\| `([A-Z_]+)` \| (.+) \|$/gm)].map((m) => [m[1], m[2]]);
    assert.deepEqual(Object.fromEntries(rows), SEAL_REASON_CODES);
    const documented = rows.map(([code]) => code).filter((code) => code !== "PRESEAL");
    assert.deepEqual(documented, REASON_PRIORITY);
  });

  it("every code but PRESEAL has a place in the priority order", () => {
    const codes = Object.keys(SEAL_REASON_CODES).filter((code) => code !== "PRESEAL");
    assert.deepEqual([...codes].sort(), [...REASON_PRIORITY].sort());
  });
});
