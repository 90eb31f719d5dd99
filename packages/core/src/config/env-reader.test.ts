import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createEnvReader, describeEnvProblem } from "./env-reader.ts";

describe("env reader", () => {
  it("trims every value the same way and reads a blank one as unset", () => {
    const read = createEnvReader({ NAME: "  svc  ", BLANK: "   ", PORT: " 8080 ", FLAG: " YES " });
    assert.equal(read.string("NAME"), "svc");
    assert.equal(read.string("BLANK"), undefined);
    assert.equal(read.string("BLANK", { fallback: "dflt" }), "dflt");
    assert.equal(read.int("PORT", { fallback: 1, min: 0, max: 65535 }), 8080);
    assert.equal(read.bool("FLAG"), true);
    assert.deepEqual(read.finish({}), { ok: true, config: {} });
  });

  it("reports every problem together, each naming the variable, what it must be and what it got", () => {
    const read = createEnvReader({
      PORT: "80a",
      WORKERS: "0",
      RATIO: "1.5",
      DEBUG: "maybe",
      URL: "ftp://x",
      MODE: "fast",
      ITEMS: "a, ,bad!",
      ROOT: "relative/dir",
    });
    const port = read.int("PORT", { fallback: 8080, min: 0, max: 65535 });
    read.int("WORKERS", { fallback: 1, min: 1, max: 64 });
    read.number("RATIO", { fallback: 0.5, min: 0, max: 1 });
    read.bool("DEBUG");
    read.url("URL");
    read.oneOf("MODE", ["standard", "deep"]);
    read.list("ITEMS", { each: (item) => /^[a-z]+$/.test(item), expected: "lowercase words" });
    read.path("ROOT", { absolute: true });
    read.string("REQUIRED", { required: "when MODE is deep" });
    // a refused value reads as its fallback, so reading goes on to the end
    assert.equal(port, 8080);
    const result = read.finish({ port });
    assert.deepEqual(result.ok ? [] : result.problems, [
      'PORT must be an integer from 0 to 65535 (got "80a")',
      'WORKERS must be an integer from 1 to 64 (got "0")',
      'RATIO must be a number from 0 to 1 (got "1.5")',
      'DEBUG must be true or false (got "maybe")',
      'URL must be an absolute http or https URL (got "ftp://x")',
      'MODE must be one of standard, deep (got "fast")',
      'ITEMS must be a list of lowercase words (got "bad!")',
      'ROOT must be an absolute path (got "relative/dir")',
      "REQUIRED must be a non-empty string when MODE is deep (got nothing)",
    ]);
  });

  it("reads integers, exclusive bounds, lists, URLs, choices and paths to their typed values", () => {
    const env = { TIMEOUT: "0", N: "12", LIST: " a , b ,, c ", URL: "https://svc.example/api/" };
    const read = createEnvReader({ ...env, MODE: "deep", DATA: "data" }, { cwd: "/srv" });
    assert.equal(read.number("N", { min: 0, max: 100 }), 12);
    assert.equal(read.number("TIMEOUT", { fallback: 20, min: 0, minExclusive: true, max: 3600 }), 20);
    assert.deepEqual(read.list("LIST"), ["a", "b", "c"]);
    assert.equal(read.list("UNSET"), undefined);
    assert.deepEqual(read.list("UNSET", { fallback: [] }), []);
    assert.equal(read.url("URL"), "https://svc.example/api/");
    assert.equal(read.oneOf("MODE", ["standard", "deep"], { fallback: "standard" }), "deep");
    assert.equal(read.path("DATA"), "/srv/data");
    assert.equal(read.path("UNSET", { fallback: "/x" }), "/x");
    assert.deepEqual(read.problems, ['TIMEOUT must be a number above 0 and at most 3600 (got "0")']);
  });

  it("reads numbers written in decimal only", () => {
    const read = createEnvReader({ A: "0x1F", B: "1e3", C: "Infinity", D: "-2", E: ".5", F: "0b11" });
    assert.equal(read.int("A", { min: 0, max: 100 }), undefined);
    assert.equal(read.int("B", { min: 0, max: 10_000 }), undefined);
    assert.equal(read.number("B", { min: 0, max: 10_000 }), 1000);
    assert.equal(read.number("C", { min: 0, max: Number.MAX_VALUE }), undefined);
    assert.equal(read.int("D", { min: -5, max: 5 }), -2);
    assert.equal(read.number("E", { min: 0, max: 1 }), 0.5);
    assert.equal(read.number("F", { min: 0, max: 10 }), undefined);
    assert.equal(read.problems.length, 4);
  });

  it("lets overrides (flags) win over the environment and names variables as the caller labels them", () => {
    const read = createEnvReader(
      { SVC_RUN_ID: "from-env", SVC_WORKERS: "4" },
      {
        overrides: { SVC_RUN_ID: "from-flag", SVC_WORKERS: "  " },
        labelOf: (name) => `--flag / ${name}`,
      },
    );
    assert.equal(read.string("SVC_RUN_ID"), "from-flag");
    // a blank flag is not given: the environment's value stands
    assert.equal(read.int("SVC_WORKERS", { min: 1, max: 2 }), undefined);
    assert.deepEqual(read.problems, ['--flag / SVC_WORKERS must be an integer from 1 to 2 (got "4")']);
  });

  it("records cross-variable problems and others' problems in the same list", () => {
    const read = createEnvReader({});
    read.problem("SVC_SIGNING_KEY_FILE", "set when SVC_DATABASE_URL is set");
    read.addProblems(["SVC_TRUSTED_KEYS_FILE is not JSON"]);
    const result = read.finish({});
    assert.deepEqual(result.ok ? [] : result.problems, [
      "SVC_SIGNING_KEY_FILE must be set when SVC_DATABASE_URL is set (got nothing)",
      "SVC_TRUSTED_KEYS_FILE is not JSON",
    ]);
    assert.equal(describeEnvProblem("X", "a number", "y"), 'X must be a number (got "y")');
  });

  it("never writes a secret's value into a problem, only its length", () => {
    const read = createEnvReader({ TOKENS: "long-enough-token-1,short", API_TOKEN: "tiny" });
    read.list("TOKENS", {
      each: (token) => token.length >= 16,
      expected: "tokens of 16+ characters",
      secret: true,
    });
    read.string("API_TOKEN", {
      check: (token) => token.length >= 16,
      expected: "16+ characters",
      secret: true,
    });
    assert.deepEqual(read.problems, [
      "TOKENS must be a list of tokens of 16+ characters (got 5 hidden characters)",
      "API_TOKEN must be 16+ characters (got 4 hidden characters)",
    ]);
  });

  it("freezes the configuration all the way down", () => {
    const read = createEnvReader({});
    const result = read.finish({ nested: { list: ["a"] }, top: 1 });
    assert.ok(result.ok);
    assert.ok(Object.isFrozen(result.config));
    assert.ok(Object.isFrozen(result.config.nested));
    assert.ok(Object.isFrozen(result.config.nested.list));
  });

  it("never reads process.env", () => {
    process.env.SVC_ENV_READER_PROBE = "leaked";
    try {
      assert.equal(createEnvReader({}).string("SVC_ENV_READER_PROBE"), undefined);
    } finally {
      delete process.env.SVC_ENV_READER_PROBE;
    }
  });
});
