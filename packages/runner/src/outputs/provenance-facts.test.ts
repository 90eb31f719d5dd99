import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { RUN_FILES } from "@svc/core";
import { createTempDir, writeRunFolderDocuments } from "@svc/testing";
import { readProvenanceFacts } from "./provenance-facts.ts";

const hex = (char: string) => char.repeat(64);
const outputs = [{ path: "run_manifest.json", sha256: hex("c"), size: 2 }];

async function runFolder(inputPaths: string[]) {
  const temp = await createTempDir("provenance-facts-");
  // each file in its full shape (core's run-file schemas): a partial one is read as unreadable
  await writeRunFolderDocuments(temp.path, { runId: "run_1", inputPaths });
  return temp;
}

describe("readProvenanceFacts", () => {
  it("is null when a file it reads is not its shape (core's run-file schemas)", async () => {
    const temp = await runFolder(["compounds.csv"]);
    try {
      await writeFile(
        join(temp.path, RUN_FILES.manifest),
        JSON.stringify({ runtime: { runner_version: "0.1.0" } }),
      );
      assert.equal(await readProvenanceFacts(temp.path, "run_1", outputs), null);
    } finally {
      await temp.remove();
    }
  });

  it("reads the facts of a run folder, a staged NFD name included", async () => {
    const temp = await runFolder(["Ame\u0301lie.csv", "compounds.csv"]);
    try {
      const facts = await readProvenanceFacts(temp.path, "run_1", outputs);
      assert.deepEqual(
        facts?.inputs.map((file) => file.path),
        ["Ame\u0301lie.csv", "compounds.csv"],
      );
      assert.deepEqual(facts?.outputs, [{ path: "run_manifest.json", sha256: hex("c") }]);
    } finally {
      await temp.remove();
    }
  });

  it("leaves provenance out (the run is still sealed) when a path is one the issuer refuses to sign (issue 38 item 6)", async () => {
    // two staged files whose names are one name after NFC: the issuer answers 400 PROVENANCE_PATH_INVALID
    const temp = await runFolder(["Ame\u0301lie.csv", "Am\u00e9lie.csv"]);
    try {
      assert.equal(await readProvenanceFacts(temp.path, "run_1", outputs), null);
    } finally {
      await temp.remove();
    }
  });
});
