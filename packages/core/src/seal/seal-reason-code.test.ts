import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { REASON_PRIORITY, SEAL_REASON_CODES, SEAL_STATES, stateOfReason } from "./seal-reason-code.ts";

const readme = readFileSync(join(import.meta.dirname, "..", "..", "README.md"), "utf8");

describe("seal reason codes", () => {
  it("are documented in the core README table, each with its meaning, in priority order", () => {
    const start = readme.indexOf("### Reason codes");
    const section = readme.slice(start, readme.indexOf("\n## ", start));
    const rows = [...section.matchAll(/^\| `([A-Z_]+)` \| (.+) \|$/gm)].map((m) => [m[1], m[2]]);
    assert.deepEqual(Object.fromEntries(rows), SEAL_REASON_CODES);
    assert.deepEqual(
      rows.map(([code]) => code),
      REASON_PRIORITY,
    );
  });

  it("every code has a place in the priority order", () => {
    assert.deepEqual(Object.keys(SEAL_REASON_CODES).sort(), [...REASON_PRIORITY].sort());
  });

  it("the states are documented in the core README table, and only the issuer's answers and pre-seals have their own", () => {
    const start = readme.indexOf("### States");
    const section = readme.slice(start, readme.indexOf("\n### ", start + 1));
    const states = [...section.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]);
    assert.deepEqual(states, [...SEAL_STATES]);
    assert.equal(stateOfReason("KEY_UNTRUSTED"), "UNVERIFIED");
    assert.equal(stateOfReason("ISSUER_MISMATCH"), "INVALID");
    for (const own of [
      "REVOKED",
      "REVOCATION_UNKNOWN",
      "NOT_ISSUED_HERE",
      "ISSUED_SEAL_MISMATCH",
      "PRESEAL_UNSIGNED",
    ] as const)
      assert.equal(stateOfReason(own), own);
  });
});
