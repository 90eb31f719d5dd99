import assert from "node:assert/strict";
import { test } from "node:test";
import { RUN_FILES } from "@svc/core";
import { statusOutputsOf } from "./seal-hashes.ts";

test("the status record lists the outputs a person fetches first, as hashed, in the contract's order; absent ones and the rest left out", () => {
  const entry = (path: string, size: number) => ({ path, size, sha256: String(size % 10).repeat(64) });
  const outputs = statusOutputsOf([
    entry(RUN_FILES.summary, 101),
    entry("raw/admet_predictions_raw.json", 5_000),
    entry(RUN_FILES.reportHtml, 2_002),
    entry(RUN_FILES.manifest, 303),
  ]);
  assert.deepEqual(outputs, [
    { path: RUN_FILES.reportHtml, bytes: 2_002, sha256: "2".repeat(64) },
    { path: RUN_FILES.summary, bytes: 101, sha256: "1".repeat(64) },
    { path: RUN_FILES.manifest, bytes: 303, sha256: "3".repeat(64) },
  ]);
});
