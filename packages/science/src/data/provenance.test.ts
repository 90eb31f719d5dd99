import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { type Dirent, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const dataDir = new URL("../../data/", import.meta.url);

test("every data file is in PROVENANCE.md with the sha256 of its bytes, and nothing else is", () => {
  const table = readFileSync(new URL("PROVENANCE.md", dataDir), "utf8");
  const rows = new Map<string, string>();
  for (const match of table.matchAll(/^\| `([^`]+)` \|.*\| ([0-9a-f]{64}) \|$/gm))
    rows.set(match[1] ?? "", match[2] ?? "");
  // Sub-folders (complexes/<id>/) are listed file by file, by their path under data/.
  const files = (readdirSync(dataDir, { recursive: true, withFileTypes: true }) as Dirent[])
    .filter((entry) => entry.isFile())
    .map((entry) => relative(fileURLToPath(dataDir), join(entry.parentPath, entry.name)))
    .filter((name) => name !== "PROVENANCE.md");
  assert.deepEqual([...rows.keys()].sort(), files.sort());
  for (const name of files) {
    const digest = createHash("sha256")
      .update(readFileSync(new URL(name, dataDir)))
      .digest("hex");
    assert.equal(digest, rows.get(name), `${name} changed: update data/PROVENANCE.md`);
  }
});
