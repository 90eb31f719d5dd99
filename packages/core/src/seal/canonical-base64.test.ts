import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isCanonicalBase64 } from "./canonical-base64.ts";

describe("isCanonicalBase64 (issue 38 items 7 and 8)", () => {
  it("accepts the one standard spelling of bytes of every length modulo 3", () => {
    for (const bytes of [
      Buffer.alloc(0),
      Buffer.of(0xff),
      Buffer.of(1, 2),
      Buffer.of(1, 2, 3),
      Buffer.alloc(64, 7),
    ])
      assert.ok(isCanonicalBase64(bytes.toString("base64")), bytes.toString("hex"));
  });

  it("refuses unused pad bits set (two spellings of one signature), base64url, whitespace and missing padding", () => {
    const signature = Buffer.alloc(64, 0x5a).toString("base64"); // …Wg==
    assert.ok(signature.endsWith("Wg=="));
    const flipped = `${signature.slice(0, -3)}h==`; // same 64 bytes when decoded leniently
    assert.ok(Buffer.from(flipped, "base64").equals(Buffer.from(signature, "base64")));
    for (const text of [flipped, "+/+/".replaceAll("+", "-"), "AAAA\nAAAA", "AAA", "AA=A", "Zm9v YmFy"])
      assert.equal(isCanonicalBase64(text), false, text);
  });

  it("checks 64 MiB of base64 without a stack overflow (a backtracking regex threw at 8 MiB)", () => {
    const big = Buffer.alloc(48 * 1024 * 1024, 0x41).toString("base64");
    const started = performance.now();
    assert.equal(isCanonicalBase64(big), true);
    assert.equal(isCanonicalBase64(`${big.slice(0, -1)}!`), false);
    assert.ok(performance.now() - started < 10_000);
  });
});
