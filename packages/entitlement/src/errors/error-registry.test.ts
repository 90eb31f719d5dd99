import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { ERROR_REGISTRY } from "./error-registry.ts";

const README = fileURLToPath(new URL("../../README.md", import.meta.url));

describe("error registry", () => {
  it("matches the README's error table row for row (code and status)", () => {
    const rows = [...readFileSync(README, "utf8").matchAll(/^\|\s*`([A-Z_]+)`\s*\|\s*(\d{3})\s*\|/gm)].map(
      (match) => [match[1], Number(match[2])] as const,
    );
    const registry = Object.entries(ERROR_REGISTRY).map(([code, entry]) => [code, entry.status] as const);
    assert.deepEqual(
      [...rows].sort(([a], [b]) => String(a).localeCompare(String(b))),
      [...registry].sort(([a], [b]) => a.localeCompare(b)),
    );
  });

  it("uses the domain notes' statuses for the entitlement conditions", () => {
    assert.equal(ERROR_REGISTRY.ENTITLEMENT_EXHAUSTED.status, 402);
    assert.equal(ERROR_REGISTRY.SEAL_ALREADY_REDEEMED.status, 409);
    assert.equal(ERROR_REGISTRY.RUN_ID_CONFLICT.status, 409);
    assert.equal(ERROR_REGISTRY.LIFECYCLE_OUT_OF_ORDER.status, 422);
    assert.equal(ERROR_REGISTRY.AUTH_WRONG_AUDIENCE.status, 401);
    assert.equal(ERROR_REGISTRY.PRINCIPAL_FORBIDDEN.status, 403);
  });
});
