import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { describe, it } from "node:test";
import { makeTempDir } from "@svc/testing";
import { explainProjectPath } from "./explain-project-path.ts";

describe("explainProjectPath: a wrong project path gets a hint saying what to give (issue 28 item 6)", () => {
  it("accepts a project folder and names what was meant for each usual mistake", async (t) => {
    const root = await makeTempDir("svc-project-path-", t);
    const project = join(root, "alpha");
    await mkdir(join(project, "01_sources"), { recursive: true });
    await writeFile(join(project, "01_sources", "sources.json"), "{}\n");
    await writeFile(join(root, "beta.smi"), "CCO b1\n");
    const shown = (path: string) =>
      relative(process.cwd(), path).startsWith("..") ? path : relative(process.cwd(), path);
    assert.equal(await explainProjectPath(project), null);
    assert.match((await explainProjectPath(join(root, "nope"))) ?? "", /does not exist \(read from /);
    assert.match(
      (await explainProjectPath(join(project, "01_sources"))) ?? "",
      new RegExp(`is the project's 01_sources/ folder; give the folder above it: ${shown(project)}$`),
    );
    assert.match(
      (await explainProjectPath(join(project, "01_sources", "sources.json"))) ?? "",
      /is the project's sources.json; give the project folder/,
    );
    assert.match(
      (await explainProjectPath(root)) ?? "",
      new RegExp(`holds project folders, it is not one; give one of: ${shown(project)}$`),
    );
    assert.match(
      (await explainProjectPath(join(root, "beta.smi"))) ?? "",
      /is a file, not a project folder; make a project of it first: svc project init /,
    );
    const empty = join(root, "empty");
    await mkdir(empty);
    await writeFile(join(empty, "set.tsv"), "smiles\nCCO\n");
    assert.match(
      (await explainProjectPath(empty)) ?? "",
      /make a project from its portfolio: svc project init \S+set\.tsv$/,
    );
  });
});
