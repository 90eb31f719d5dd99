import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { thrownErrorCodes } from "@svc/testing";
import { EXIT, RUNNER_ERRORS, RunnerError } from "./runner-error.ts";

const RUNNER = join(import.meta.dirname, "..");
const REPO = join(RUNNER, "..", "..");
const readme = readFileSync(join(RUNNER, "README.md"), "utf8");
const byCode = <T extends readonly unknown[]>(a: T, b: T) => String(a[0]).localeCompare(String(b[0]));

test("the README's error table lists exactly the registry's codes with their exit codes and actions", () => {
  const rows = [...readme.matchAll(/^\| `([A-Z_]+)`\s*\| (\d+)\s*\| (.+?)\s*\|$/gm)].map((m) => [
    m[1],
    Number(m[2]),
    m[3],
  ]);
  const registry = Object.entries(RUNNER_ERRORS).map(([code, entry]) => [code, entry.exit, entry.action]);
  assert.deepEqual(rows.sort(byCode), registry.sort(byCode));
});

test("every code has one exit status of the runner's exit codes, and a RunnerError ends with it (issue 41 item 3)", () => {
  const exits = new Set<number>(Object.values(EXIT));
  for (const [code, entry] of Object.entries(RUNNER_ERRORS)) {
    assert.ok(exits.has(entry.exit), `${code} exits ${entry.exit}, not a documented exit code`);
    const error = new RunnerError(code as keyof typeof RUNNER_ERRORS, "why");
    assert.equal(error.exitCode, entry.exit, code);
    assert.equal(error.action, entry.action, code);
  }
});

// A code passed through a variable is typed RunnerErrorCode, so only literals need reading here.
test("every code literal the runner's source throws is in the registry", () => {
  const thrown = thrownErrorCodes([join(RUNNER, "src"), join(RUNNER, "bin")], "RunnerError", REPO);
  assert.ok(
    thrown.length > 40,
    `only ${thrown.length} RunnerError constructions found: is the scan reading src?`,
  );
  assert.deepEqual(
    thrown.filter(({ code }) => code !== null && !(code in RUNNER_ERRORS)),
    [],
  );
});

test("the README's and runner-env contract's exit code lists are EXIT's", () => {
  const start = readme.indexOf("## Exit codes");
  const table = readme.slice(start, readme.indexOf("\n## ", start + 1));
  const documented = [...table.matchAll(/^\| (\d+)\s+\|/gm)].map((m) => Number(m[1]));
  const exits = Object.values(EXIT) as number[];
  assert.deepEqual(
    documented.sort((a, b) => a - b),
    [...exits].sort((a, b) => a - b),
  );
  const contract = readFileSync(join(REPO, "docs", "contracts", "runner-env.md"), "utf8");
  const sentence = /^Exit codes: ([\s\S]+?)\n\n/m.exec(contract)?.[1] ?? "";
  const listed = [...sentence.matchAll(/(?:^|;\s+)(\d+) /g)].map((m) => Number(m[1]));
  assert.deepEqual(
    listed.sort((a, b) => a - b),
    [...exits].sort((a, b) => a - b),
  );
});
