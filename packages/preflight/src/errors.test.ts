import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { PREFLIGHT_ENV_NAMES } from "./config.ts";
import { ERROR_REGISTRY, PreflightError } from "./errors.ts";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");

function section(title: string): string {
  const start = readme.indexOf(`## ${title}`);
  assert.notEqual(start, -1, `README has a ${title} section`);
  const end = readme.indexOf("\n## ", start + 1);
  return readme.slice(start, end === -1 ? undefined : end);
}

test("the README error table lists exactly the registry's codes with the same HTTP status", () => {
  const rows = [...section("Errors").matchAll(/^\|\s*`([A-Z_]+)`\s*\|\s*(\d{3})\s*\|/gm)].map((match) => [
    match[1],
    Number(match[2]),
  ]);
  const registry = Object.entries(ERROR_REGISTRY).map(([code, entry]) => [code, entry.status]);
  assert.deepEqual([...rows].sort(), [...registry].sort());
});

test("the README configuration table documents every variable config.ts reads", () => {
  const table = section("Configuration");
  for (const name of PREFLIGHT_ENV_NAMES) assert.match(table, new RegExp(`\`${name}\``), name);
});

test("a PreflightError carries its registry status and default message", () => {
  const error = new PreflightError("REPRO_PACK_NOT_FOUND");
  assert.equal(error.status, 404);
  assert.equal(error.message, ERROR_REGISTRY.REPRO_PACK_NOT_FOUND.message);
});
