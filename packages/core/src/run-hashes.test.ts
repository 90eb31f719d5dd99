import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { sha256Hex } from "./digest.ts";
import { computeSealedRunHashes } from "./run-hashes.ts";

async function runFolder(t: { after: (fn: () => Promise<void>) => void }) {
  const dir = await mkdtemp(join(tmpdir(), "svc-run-hashes-"));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await mkdir(join(dir, "results"));
  await writeFile(join(dir, "run_manifest.json"), '{"run_id":"r"}\n');
  await writeFile(join(dir, "results", "summary.json"), "{}\n");
  return dir;
}

describe("computeSealedRunHashes", () => {
  it("hashes the manifest and every output as sha256sum would list them", async (t) => {
    const dir = await runFolder(t);
    const hashes = await computeSealedRunHashes(dir);
    assert.equal(hashes.run_manifest_sha256, sha256Hex('{"run_id":"r"}\n'));
    const listing = `${sha256Hex("{}\n")}  results/summary.json\n${sha256Hex('{"run_id":"r"}\n')}  run_manifest.json\n`;
    assert.equal(hashes.outputs_sha256, sha256Hex(listing));
  });

  it("leaves out seal/ and the runner's .scratch/, and nothing else", async (t) => {
    const dir = await runFolder(t);
    const before = await computeSealedRunHashes(dir);
    await mkdir(join(dir, "seal"));
    await writeFile(join(dir, "seal", "seal.json"), "{}");
    await mkdir(join(dir, ".scratch"));
    await writeFile(join(dir, ".scratch", "rows.tmp"), "x");
    assert.equal((await computeSealedRunHashes(dir)).outputs_sha256, before.outputs_sha256);
    await writeFile(join(dir, ".scratchy"), "x");
    assert.notEqual((await computeSealedRunHashes(dir)).outputs_sha256, before.outputs_sha256);
  });

  it("reports a missing manifest as null rather than throwing", async (t) => {
    const dir = await runFolder(t);
    await rm(join(dir, "run_manifest.json"));
    assert.equal((await computeSealedRunHashes(dir)).run_manifest_sha256, null);
  });
});
