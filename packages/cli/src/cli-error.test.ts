import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { SEAL_STATES } from "@svc/core";
import { thrownErrorCodes } from "@svc/testing";
import { CLI_ERROR_CODES, CLI_EXITS, CliError } from "./cli-error.ts";

const CLI = join(import.meta.dirname, "..");
const REPO = join(CLI, "..", "..");
const readme = readFileSync(join(CLI, "README.md"), "utf8");

function section(text: string, title: string): string {
  const start = text.indexOf(title);
  assert.notEqual(start, -1, `no section ${title}`);
  return text.slice(start, text.indexOf("\n## ", start + 1));
}

describe("the CLI's one exit table (issue 41 item 3)", () => {
  it("gives every code one integer exit status and one action sentence", () => {
    for (const [code, entry] of Object.entries(CLI_EXITS)) {
      assert.deepEqual(Object.keys(entry).sort(), ["action", "exit"], code);
      assert.ok(Number.isInteger(entry.exit) && entry.exit >= 0 && entry.exit <= 255, code);
      assert.match(entry.action, /^\S.*\S$/, code);
    }
  });

  it("ends a CliError with its code's exit status, whatever it was thrown for", () => {
    for (const code of CLI_ERROR_CODES) {
      const error = new CliError(code, "why");
      assert.equal(error.exitCode, CLI_EXITS[code].exit, code);
      assert.equal(error.action, CLI_EXITS[code].action, code);
    }
    assert.equal(new CliError("ISSUER_UNREACHABLE", "GET x: ECONNREFUSED").exitCode, 10);
  });

  it("gives each seal state an exit status of its own, 0 only to VERIFIED", () => {
    const exits = SEAL_STATES.map((state) => CLI_EXITS[state].exit);
    assert.equal(new Set(exits).size, SEAL_STATES.length);
    assert.deepEqual(
      SEAL_STATES.filter((state) => CLI_EXITS[state].exit === 0),
      ["VERIFIED"],
    );
    assert.equal(CLI_EXITS.ISSUED_SEAL_MISMATCH.exit, 16);
    assert.equal(CLI_EXITS.LOG_PROOF_MISSING.exit, 17);
  });

  it("holds every code the CLI's source throws, each a string literal of CLI_ERROR_CODES", () => {
    const thrown = thrownErrorCodes([join(CLI, "src"), join(CLI, "bin")], "CliError", REPO);
    assert.ok(
      thrown.length > 50,
      `only ${thrown.length} CliError constructions found: is the scan reading src?`,
    );
    const unknown = thrown.filter(
      ({ code }) => code === null || !(CLI_ERROR_CODES as readonly string[]).includes(code),
    );
    assert.deepEqual(unknown, []);
  });
});

describe("the CLI's documented exits are the table's", () => {
  it("the README's Errors table lists exactly CLI_ERROR_CODES with their exit and action", () => {
    const rows = [
      ...section(readme, "## Errors").matchAll(/^\| `([A-Z_]+)` \| (\d+) \| .+ \| (.+?) \|$/gm),
    ].map((m) => [m[1], Number(m[2]), m[3]]);
    assert.deepEqual(
      rows,
      CLI_ERROR_CODES.map((code) => [code, CLI_EXITS[code].exit, CLI_EXITS[code].action]),
    );
  });

  it("the README's exit code table lists every exit of the table, each seal state in its own row", () => {
    const table = section(readme, "## States and exit codes");
    const rows = new Map([...table.matchAll(/^\| (\d+) \| (.+) \|$/gm)].map((m) => [Number(m[1]), m[2]]));
    assert.deepEqual(
      [...rows.keys()].sort((a, b) => a - b),
      [...new Set(Object.values(CLI_EXITS).map((entry) => entry.exit))].sort((a, b) => a - b),
    );
    for (const state of SEAL_STATES)
      assert.match(rows.get(CLI_EXITS[state].exit) ?? "", new RegExp(`^${state}\\b`), state);
  });

  it("the entitlement contract's list of svc seal verify exits names every state with its exit", () => {
    const contract = readFileSync(join(REPO, "docs", "contracts", "entitlement-http.md"), "utf8");
    const sentence = /`svc seal verify` exits ([^.]+)\./.exec(contract)?.[1] ?? "";
    const listed = [...sentence.matchAll(/(\d+) ([A-Z_]+)/g)].map((m) => [m[2], Number(m[1])]);
    assert.deepEqual(
      listed,
      [...SEAL_STATES]
        .sort((a, b) => CLI_EXITS[a].exit - CLI_EXITS[b].exit)
        .map((state) => [state, CLI_EXITS[state].exit]),
    );
  });
});
