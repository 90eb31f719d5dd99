import assert from "node:assert/strict";
import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { listUncoveredPaths } from "@svc/core";
import { makeTempDir } from "@svc/testing";
import { openScratch, removeScratchFolders } from "./scratch.ts";

describe("removeScratchFolders", () => {
  it("leaves a run folder with no scratch entry, its own or another pod's, and nothing else touched", async (t) => {
    const runDir = await makeTempDir("scratch-", t);
    const scratch = await openScratch(runDir);
    await writeFile(scratch.path("prepared.jsonl"), "{}\n");
    await mkdir(join(runDir, ".scratch-2"));
    await writeFile(join(runDir, ".scratch-2", "rows.tmp"), "x");
    await mkdir(join(runDir, "results"));
    await writeFile(join(runDir, "results", "summary.json"), "{}");
    await writeFile(join(runDir, ".scratchy"), "an output, hashed");
    await removeScratchFolders(runDir);
    assert.deepEqual((await readdir(runDir)).sort(), [".scratchy", "results"]);
    assert.deepEqual(await listUncoveredPaths(runDir, "sealed"), []);
    await scratch.dispose();
  });
});
