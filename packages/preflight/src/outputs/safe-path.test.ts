import assert from "node:assert/strict";
import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { makeTempDir } from "@svc/testing";
import { checkRelativePath, resolveInsideRun, resolveRunRoot } from "./safe-path.ts";

test("plain relative paths pass and give their segments", () => {
  assert.deepEqual(checkRelativePath("path", "results/summary.json"), ["results", "summary.json"]);
  assert.deepEqual(checkRelativePath("prefix", "results/", { allowTrailingSlash: true }), ["results"]);
  assert.deepEqual(checkRelativePath("path", "a%20b.json"), ["a%20b.json"]);
});

test("each unsafe form is refused with PATH_REFUSED naming the field", () => {
  const unsafe: [string, RegExp][] = [
    ["..", /'\.\.' segment/],
    ["results/../../etc/passwd", /'\.\.' segment/],
    ["./x", /'\.' segment/],
    ["/etc/passwd", /absolute/],
    ["results%2Fsummary.json", /encoded/],
    ["results%5csummary.json", /encoded/],
    ["%2e%2e/x", /encoded/],
    ["x%00", /encoded/],
    ["results/summary.json\u0000.txt", /NUL/],
    ["results\\summary.json", /backslash/],
    ["results//summary.json", /empty segment/],
    ["results/", /empty segment/],
    ["", /empty/],
    ["a".repeat(1025), /longer/],
  ];
  for (const [value, reason] of unsafe)
    assert.throws(
      () => checkRelativePath("path", value),
      (error: unknown) => {
        assert.equal((error as { code?: string }).code, "PATH_REFUSED", value);
        assert.match((error as Error).message, /^path refused/);
        assert.match((error as Error).message, reason, value);
        return true;
      },
    );
});

test("symlinks inside a run are refused wherever they lead; a run directory linked out of the root is refused", async (t) => {
  const outputRoot = await makeTempDir("svc-safe-", t);
  const outside = await makeTempDir("svc-outside-", t);
  await writeFile(join(outside, "secret"), "x");
  await mkdir(join(outputRoot, "run_1", "results"), { recursive: true });
  await writeFile(join(outputRoot, "run_1", "results", "a.json"), "{}");
  await symlink(join(outside, "secret"), join(outputRoot, "run_1", "file-out"));
  await symlink(outside, join(outputRoot, "run_1", "dir-out"));
  await symlink(join(outputRoot, "run_1", "results"), join(outputRoot, "run_1", "dir-in"));
  await symlink(outside, join(outputRoot, "run_out"));
  const root = await resolveRunRoot(outputRoot, "run_1");
  assert.equal(await resolveInsideRun(root, ["results", "a.json"]), join(root, "results", "a.json"));
  await assert.rejects(resolveInsideRun(root, ["dir-in", "a.json"]), {
    code: "PATH_REFUSED",
    message: "path refused: dir-in is a symbolic link; run folders hold regular files and directories only",
  });
  await assert.rejects(resolveInsideRun(root, ["file-out"]), { code: "PATH_REFUSED" });
  await assert.rejects(resolveInsideRun(root, ["dir-out", "secret"]), { code: "PATH_REFUSED" });
  await assert.rejects(resolveInsideRun(root, ["missing"]), { code: "OUTPUT_NOT_FOUND" });
  await assert.rejects(resolveRunRoot(outputRoot, "run_out"), { code: "PATH_REFUSED" });
  await assert.rejects(resolveRunRoot(outputRoot, "run_none"), { code: "RUN_NOT_FOUND" });
  for (const runId of ["..", ".hidden", "a/b", "run_1/", "x".repeat(129), "run-", "run:1"])
    await assert.rejects(resolveRunRoot(outputRoot, runId), { code: "INVALID_INPUT" }, runId);
});
