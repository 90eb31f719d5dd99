import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";

// Issue 15 "Done when": deleting a field from the fake fails the contract suite. Each case runs
// the suite in a child process against the fake with one field of one answer deleted
// (fake-with-dropped-field.contract.ts) and expects that run to fail; the control run, with
// nothing deleted, must pass, so the failures come from the deleted field and nothing else.
const harness = fileURLToPath(new URL("./fake-with-dropped-field.contract.ts", import.meta.url));

function runSuite(drop: string): { code: number | null; output: string } {
  // Without NODE_TEST_CONTEXT the child is a test run of its own, not a part of this one.
  const { NODE_TEST_CONTEXT: _inherited, ...env } = process.env;
  const child = spawnSync(process.execPath, ["--test", "--test-reporter=tap", harness], {
    env: { ...env, SVC_CONTRACT_DROP: drop },
    encoding: "utf8",
    timeout: 120_000,
  });
  return { code: child.status, output: `${child.stdout}${child.stderr}` };
}

describe("the entitlement contract suite catches a fake that drifts", { concurrency: 2 }, () => {
  it("passes against the fake as it is (control)", () => {
    const { code, output } = runSuite("");
    assert.equal(code, 0, output);
  });

  for (const drop of [
    "check:runs_remaining",
    "consume:ledger_entry_id",
    "run_start:state",
    "run_complete:seal.key_id",
  ]) {
    it(`fails when the fake's ${drop.replace(":", " answer loses ")}`, () => {
      const { code, output } = runSuite(drop);
      assert.notEqual(code, 0, `the suite passed with ${drop} deleted:\n${output}`);
      assert.match(output, /not ok .*(check|consume|run_start|run_complete)/);
    });
  }
});
