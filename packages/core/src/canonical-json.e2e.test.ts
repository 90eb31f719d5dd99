import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { describe, it } from "node:test";
import { canonicalize } from "./canonical-json.ts";
import { CoreError } from "./core-error.ts";

const corpus: unknown[] = [
  {},
  [],
  { b: 1, a: 2, c: { z: null, y: [true, false] } },
  { seal_id: "seal_00", n: 9007199254740991, m: -9007199254740991, zero: 0 },
  { text: "naïve café — 日本語 😀", quote: 'say "hi"\\', ctrl: "\u0000\u0001\u001f\n\r\t\b\f\u007f" },
  { separators: "\u2028\u2029", emptyKey: { "": "x" }, nested: [[[{}]]] },
  { Z: 1, a: 2, _: 3, "0": 4, "~": 5, " ": 6 },
  ["mixed", 1, null, { k: "v" }],
  "just a string",
  42,
  null,
];

function pythonCanonical(value: unknown): string {
  const script =
    "import json,sys; v=json.loads(sys.stdin.read()); sys.stdout.write(json.dumps(v, sort_keys=True, separators=(',', ':'), ensure_ascii=False))";
  return execFileSync("python3", ["-c", script], { input: JSON.stringify(value), encoding: "utf8" });
}

describe("canonicalize", () => {
  it("produces the same bytes as Python's json.dumps(sort_keys, compact, ensure_ascii=False) on the corpus", () => {
    for (const value of corpus) {
      assert.equal(canonicalize(value), pythonCanonical(value), JSON.stringify(value));
    }
  });

  it("sorts keys and removes insignificant whitespace (RFC 8785 §3.2)", () => {
    assert.equal(canonicalize({ b: [1, 2], a: "x" }), '{"a":"x","b":[1,2]}');
  });

  for (const [name, value] of [
    ["a float", { x: 1.5 }],
    ["NaN", { x: Number.NaN }],
    ["Infinity", [Number.POSITIVE_INFINITY]],
    ["an unsafe integer", { x: 2 ** 53 }],
    ["a lone high surrogate", { x: "a\ud800b" }],
    ["a lone low surrogate", ["\udc00"]],
    ["a non-ASCII key", { clé: 1 }],
    ["undefined", { x: undefined }],
    ["a Date", { x: new Date(0) }],
    ["a bigint", { x: 1n }],
    ["a function", [() => 1]],
  ] as const) {
    it(`refuses ${name} with CANONICAL_JSON_UNSUPPORTED`, () => {
      assert.throws(
        () => canonicalize(value),
        (error: unknown) => error instanceof CoreError && error.code === "CANONICAL_JSON_UNSUPPORTED",
      );
    });
  }

  it("names the path of the offending value", () => {
    assert.throws(() => canonicalize({ outer: [{ inner: 0.5 }] }), /\$\.outer\[0\]\.inner/);
  });
});
