import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { sha256Hex } from "./digest.ts";
import { computeSealedRunHashes, listUncoveredPaths, SEAL_FOLDER_ENTRIES } from "./run-hashes.ts";

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

describe("listUncoveredPaths", () => {
  async function sealed(t: { after: (fn: () => Promise<void>) => void }) {
    const dir = await runFolder(t);
    await mkdir(join(dir, "seal"));
    for (const name of SEAL_FOLDER_ENTRIES.sealed) await writeFile(join(dir, "seal", name), "x");
    return dir;
  }

  it("finds nothing in a folder holding only hashed outputs and the five seal files", async (t) => {
    assert.deepEqual(await listUncoveredPaths(await sealed(t), "sealed"), []);
  });

  it("names scratch entries, empty folders at any depth and every extra seal/ entry (issue 23 item 2)", async (t) => {
    const dir = await sealed(t);
    await mkdir(join(dir, ".scratch-0"));
    await writeFile(join(dir, ".scratch-0", "report.html"), "edited");
    await mkdir(join(dir, ".scratch"));
    await writeFile(join(dir, ".scratch-README.txt"), "claims");
    await mkdir(join(dir, "FDA_APPROVED"));
    await mkdir(join(dir, "results", "deep", "ALL_CLEARED"), { recursive: true });
    await writeFile(join(dir, "seal", "CERTIFICATE.html"), "x");
    await mkdir(join(dir, "seal", "pending"));
    assert.deepEqual(await listUncoveredPaths(dir, "sealed"), [
      ".scratch-0/",
      ".scratch-README.txt",
      ".scratch/",
      "FDA_APPROVED/",
      "results/deep/ALL_CLEARED/",
      "seal/CERTIFICATE.html",
      "seal/pending/",
    ]);
  });

  it("covers seal/provenance.intoto.jsonl as a file of a sealed folder only, never as a folder (issue 30 item 6)", async (t) => {
    const dir = await sealed(t);
    assert.ok(SEAL_FOLDER_ENTRIES.sealed.includes("provenance.intoto.jsonl"));
    assert.deepEqual(await listUncoveredPaths(dir, "sealed"), []);
    assert.ok((await listUncoveredPaths(dir, "preseal")).includes("seal/provenance.intoto.jsonl"));
    await rm(join(dir, "seal", "provenance.intoto.jsonl"));
    await mkdir(join(dir, "seal", "provenance.intoto.jsonl"));
    await writeFile(join(dir, "seal", "provenance.intoto.jsonl", "statement.json"), "{}");
    assert.deepEqual(await listUncoveredPaths(dir, "sealed"), ["seal/provenance.intoto.jsonl/"]);
  });

  it("names a file called seal, which the outputs hash leaves out like the folder", async (t) => {
    const dir = await runFolder(t);
    await writeFile(join(dir, "seal"), "the science is right");
    assert.deepEqual(await listUncoveredPaths(dir, "sealed"), ["seal"]);
  });

  it("leaves hidden files that are not scratch to the outputs hash (they are covered)", async (t) => {
    const dir = await sealed(t);
    await writeFile(join(dir, ".scratchy"), "hashed");
    await writeFile(join(dir, "results", ".note"), "hashed");
    assert.deepEqual(await listUncoveredPaths(dir, "sealed"), []);
  });

  it("accepts a pre-seal's files and its pending/ state, and refuses seal files beside them", async (t) => {
    const dir = await runFolder(t);
    await mkdir(join(dir, "seal", "pending"), { recursive: true });
    await writeFile(join(dir, "seal", "pending", "hashes.json"), "{}");
    await writeFile(join(dir, "seal", "preseal.json"), "{}");
    await writeFile(join(dir, "seal", "preseal.svg"), "<svg/>");
    assert.deepEqual(await listUncoveredPaths(dir, "preseal"), []);
    await writeFile(join(dir, "seal", "seal.json"), "{}");
    assert.deepEqual(await listUncoveredPaths(dir, "preseal"), ["seal/seal.json"]);
  });
});
