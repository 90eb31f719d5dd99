// Every production error class stands on core's CodedError (issue 41 item 3, ARCHITECTURE.md
// convention 6): a stable `code` a caller switches on, from its package's registry. A class that
// extends the bare `Error` has no code and no registry entry. @svc/testing is test code.
import assert from "node:assert/strict";
import { type Dirent, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { test } from "node:test";

const ROOT = new URL("..", import.meta.url).pathname;
const PRODUCTION = ["src", "bin"];

function sourceFiles(dir: string): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : sourceFiles(path);
    return /\.ts$/.test(entry.name) && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

test("no production error class of a package extends the bare Error: each is a CodedError with a registry code", () => {
  const packages = readdirSync(join(ROOT, "packages")).filter((name) => name !== "testing");
  const files = packages.flatMap((name) =>
    PRODUCTION.flatMap((dir) => sourceFiles(join(ROOT, "packages", name, dir))),
  );
  assert.ok(files.length > 300, `only ${files.length} source files read`);
  const bare = files.flatMap((file) =>
    [
      ...readFileSync(file, "utf8").matchAll(
        /\bclass (\w+) extends (?:globalThis\.)?(?:Error|TypeError|RangeError)\b/g,
      ),
    ].map((match) => `${relative(ROOT, file)}: ${match[1]}`),
  );
  assert.deepEqual(bare, []);
});
