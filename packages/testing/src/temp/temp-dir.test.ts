import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { createTempDir, makeTempDir } from "./temp-dir.ts";

describe("temp dirs", () => {
  let fromTest = "";
  it("makes a dir that exists during the test", async (t) => {
    fromTest = await makeTempDir("svc-temp-dir-test-", t);
    await writeFile(join(fromTest, "file"), "x");
    assert.ok(existsSync(join(fromTest, "file")));
  });

  it("has removed it, contents included, once its test ended", () => {
    assert.ok(fromTest !== "");
    assert.equal(existsSync(fromTest), false);
  });

  it("lets a harness remove its own dir, twice without error", async () => {
    const dir = await createTempDir("svc-temp-dir-harness-");
    await writeFile(join(dir.path, "file"), "x");
    await dir.remove();
    await dir.remove();
    assert.equal(existsSync(dir.path), false);
  });
});
