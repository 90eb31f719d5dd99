import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { CLI_ERROR_CODES, EXIT } from "./cli-error.ts";

const readme = readFileSync(join(import.meta.dirname, "..", "README.md"), "utf8");

function section(title: string): string {
  const start = readme.indexOf(title);
  return readme.slice(start, readme.indexOf("\n## ", start + 1));
}

describe("the CLI's errors and exit codes", () => {
  it("every error code is in the README's error table and nothing else is", () => {
    const documented = [...section("## Errors").matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]);
    assert.deepEqual(documented, [...CLI_ERROR_CODES]);
  });

  it("every exit code is in the README's exit code table", () => {
    const documented = [...section("## States and exit codes").matchAll(/^\| (\d+) \|/gm)].map((m) =>
      Number(m[1]),
    );
    assert.deepEqual(documented.sort(), Object.values(EXIT).sort());
  });
});
