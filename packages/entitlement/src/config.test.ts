import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { readConfig } from "./config.ts";

describe("service configuration", () => {
  it("defaults redemption to the issued principal and verification to a bounded pool", () => {
    const result = readConfig({}, "/srv");
    assert.ok(result.ok);
    assert.equal(result.config.redeemScope, "issued_principal");
    assert.ok(result.config.verifyWorkers >= 1);
    assert.equal(result.config.verifyQueue, 16);
    assert.equal(result.config.verifyTimeoutMs, 10_000);
  });

  it("accepts the spec-literal redemption scope and sizes the verification pool", () => {
    const result = readConfig(
      {
        SVC_REDEEM_SCOPE: "any_principal",
        SVC_VERIFY_WORKERS: "3",
        SVC_VERIFY_QUEUE: "0",
        SVC_VERIFY_TIMEOUT_MS: "500",
      },
      "/srv",
    );
    assert.ok(result.ok);
    assert.equal(result.config.redeemScope, "any_principal");
    assert.equal(result.config.verifyWorkers, 3);
    assert.equal(result.config.verifyQueue, 0);
    assert.equal(result.config.verifyTimeoutMs, 500);
  });

  it("reports every bad value together, naming the variable", () => {
    const result = readConfig(
      { SVC_REDEEM_SCOPE: "anyone", SVC_VERIFY_WORKERS: "0", SVC_VERIFY_TIMEOUT_MS: "5" },
      "/srv",
    );
    assert.equal(result.ok, false);
    const problems = result.ok ? [] : result.problems;
    assert.equal(problems.length, 3);
    assert.match(problems.join("\n"), /SVC_REDEEM_SCOPE must be one of issued_principal, any_principal/);
    assert.match(problems.join("\n"), /SVC_VERIFY_WORKERS must be an integer from 1 to 64/);
    assert.match(problems.join("\n"), /SVC_VERIFY_TIMEOUT_MS must be an integer from 100/);
  });
});
