import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { walkTree } from "./walk-tree.ts";

test("lists files and directories below the root in UTF-8 byte order, honouring exclude", async (t) => {
  const root = await mkdtemp(join(tmpdir(), "svc-walk-"));
  t.after(() => rm(root, { recursive: true, force: true }));
  await mkdir(join(root, "b/inner"), { recursive: true });
  await writeFile(join(root, "b/inner/x.txt"), "x");
  await writeFile(join(root, "a.txt"), "a");
  await writeFile(join(root, "skip.me"), "s");
  const walk = await walkTree(root, { exclude: (path) => path === "skip.me" });
  assert.deepEqual(walk.files, ["a.txt", "b/inner/x.txt"]);
  assert.deepEqual(walk.directories, ["b/", "b/inner/"]);
});

test("refuses a symbolic link anywhere below the root, even one that stays inside it", async (t) => {
  const root = await mkdtemp(join(tmpdir(), "svc-walk-"));
  t.after(() => rm(root, { recursive: true, force: true }));
  await mkdir(join(root, "d"));
  await writeFile(join(root, "d/real.txt"), "r");
  await symlink(join(root, "d/real.txt"), join(root, "d/link.txt"));
  await assert.rejects(walkTree(root), {
    code: "TREE_UNSUPPORTED_ENTRY",
    message: "d/link.txt: symbolic link",
  });
});

test("refuses a file name that is not UTF-8, naming it with its bytes escaped (issue 23 item 10)", async (t) => {
  const root = await mkdtemp(join(tmpdir(), "svc-walk-"));
  t.after(() => rm(root, { recursive: true, force: true }));
  await mkdir(join(root, "results"));
  await writeFile(join(root, "results/ok.txt"), "o");
  await writeFile(
    Buffer.concat([Buffer.from(`${root}/results/bad`), Buffer.from([0xff, 0xfe]), Buffer.from(".txt")]),
    "b",
  );
  await assert.rejects(walkTree(root), {
    code: "TREE_UNSUPPORTED_ENTRY",
    message: "results/bad\\xff\\xfe.txt: a file name that is not UTF-8",
  });
});
