import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { UploadBudget } from "./upload-budget.ts";

describe("one budget of upload bytes per second (issue 9 item 7)", () => {
  it("lets a burst through, then asks each upload to wait until its debt is paid", () => {
    let now = 0;
    const budget = new UploadBudget(1000, 100, () => now);
    assert.equal(budget.charge(60), 0);
    assert.equal(budget.charge(40), 0, "the whole burst");
    assert.equal(budget.charge(20), 20, "20 bytes over at 1000 B/s: 20 ms");
    assert.equal(budget.charge(30), 50, "debts add up");
    now += 50;
    assert.equal(budget.charge(0), 0, "paid after 50 ms");
    now += 10_000;
    assert.equal(budget.charge(100), 0);
    assert.equal(budget.charge(1), 1, "an idle budget refills to its burst, not beyond");
  });

  it("refuses a budget that could never pay", () => {
    assert.throws(() => new UploadBudget(0, 100), RangeError);
    assert.throws(() => new UploadBudget(100, 0), RangeError);
  });
});
