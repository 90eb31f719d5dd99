import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { RUNNER_ERRORS } from "./runner-error.ts";

test("the README's error table lists exactly the registry's codes with their exit codes and actions", () => {
  const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
  const rows = [...readme.matchAll(/^\| `([A-Z_]+)`\s*\| (\d+)\s*\| (.+?)\s*\|$/gm)].map((m) => [
    m[1],
    Number(m[2]),
    m[3],
  ]);
  const registry = Object.entries(RUNNER_ERRORS).map(([code, entry]) => [code, entry.exit, entry.action]);
  assert.deepEqual(rows, registry);
});
