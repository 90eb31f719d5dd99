import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { createTempDir } from "@svc/testing";
import { readProvenanceFacts } from "./provenance-facts.ts";

const hex = (char: string) => char.repeat(64);
const outputs = [{ path: "run_manifest.json", sha256: hex("c"), size: 2 }];

async function runFolder(inputPaths: string[]) {
  const temp = await createTempDir("provenance-facts-");
  const write = async (path: string, value: unknown) => {
    await mkdir(join(temp.path, path, ".."), { recursive: true });
    await writeFile(join(temp.path, path), JSON.stringify(value));
  };
  await write("inputs/input_hashes.json", { files: inputPaths.map((path) => ({ path, sha256: hex("1") })) });
  await write("plans/run_1_module_plan.json", {
    policy_version: "policy-1",
    modules: [{ module_id: "molecular_logic", outcome: "executed", version: "1.0.0" }],
  });
  await write("run_manifest.json", { runtime: { runner_version: "0.1.0" } });
  return temp;
}

describe("readProvenanceFacts", () => {
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
