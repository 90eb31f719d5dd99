import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, open, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { CoreError } from "./core-error.ts";
import { sha256File } from "./digest.ts";
import { digestTree } from "./tree-digest.ts";

let root: string;

before(async () => {
  root = await mkdtemp(join(tmpdir(), "svc-tree-"));
  await mkdir(join(root, "results", "deep"), { recursive: true });
  await mkdir(join(root, "empty"));
  await writeFile(join(root, "run_manifest.json"), '{"a":1}');
  await writeFile(join(root, "results", "summary.json"), "{}\n");
  await writeFile(join(root, "results", "deep", "é.txt"), "unicode name");
  await writeFile(join(root, "results.txt"), "sorts between results and results/ by bytes");
  await writeFile(join(root, "a b.txt"), "space in name");
});

after(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("digestTree (svc-tree/v1)", () => {
  it("equals the documented sha256sum pipeline, so a third party can recompute it", async () => {
    const ours = await digestTree(root);
    const theirs = execFileSync(
      "bash",
      [
        "-c",
        "find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sed 's|  \\./|  |' | sha256sum",
      ],
      { cwd: root, encoding: "utf8" },
    ).split(" ")[0];
    assert.equal(ours.sha256, theirs);
    assert.deepEqual(
      ours.entries.map((entry) => entry.path),
      ["a b.txt", "results.txt", "results/deep/é.txt", "results/summary.json", "run_manifest.json"],
    );
  });

  it("leaves out excluded paths", async () => {
    const all = await digestTree(root);
    const withoutResults = await digestTree(root, { exclude: (path) => path === "results" });
    assert.notEqual(all.sha256, withoutResults.sha256);
    assert.ok(withoutResults.entries.every((entry) => !entry.path.startsWith("results/")));
  });

  it("changes when one byte of one file changes", async () => {
    const before = await digestTree(root);
    await writeFile(join(root, "results", "summary.json"), "{}\r");
    const after = await digestTree(root);
    await writeFile(join(root, "results", "summary.json"), "{}\n");
    assert.notEqual(before.sha256, after.sha256);
  });

  it("refuses a symbolic link instead of following it", async () => {
    const dir = await mkdtemp(join(tmpdir(), "svc-tree-link-"));
    await writeFile(join(dir, "target"), "x");
    await symlink(join(dir, "target"), join(dir, "link"));
    await assert.rejects(
      digestTree(dir),
      (error: unknown) => error instanceof CoreError && error.code === "TREE_UNSUPPORTED_ENTRY",
    );
    await rm(dir, { recursive: true, force: true });
  });
});

describe("sha256File", () => {
  it("streams a 256 MiB file without holding it in memory and matches sha256sum", async () => {
    const path = join(root, "..", `svc-big-${process.pid}.bin`);
    const handle = await open(path, "w");
    await handle.truncate(256 * 1024 * 1024); // sparse: cheap to create, real bytes to read
    await handle.write("tail", 256 * 1024 * 1024 - 4);
    await handle.close();
    const baseline = process.memoryUsage().rss;
    const { sha256, size } = await sha256File(path);
    const growth = process.memoryUsage().rss - baseline;
    const expected = execFileSync("sha256sum", [path], { encoding: "utf8" }).split(" ")[0];
    await rm(path);
    assert.equal(sha256, expected);
    assert.equal(size, 256 * 1024 * 1024);
    // Buffering the file would grow memory by at least its size; streaming stays far below.
    assert.ok(growth < 128 * 1024 * 1024, `rss grew by ${growth} bytes for a 256 MiB file`);
  });
});
