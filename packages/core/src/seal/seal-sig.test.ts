import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { verifySealFolder } from "./seal-bundle.ts";
import { makeSealFixture } from "./seal-fixture.ts";
import { decodeSealSig } from "./seal-sig.ts";

const { bundle, trusted } = makeSealFixture();
const line = bundle.sealSig.trimEnd();

describe("seal.sig is read strictly (issue 23 item 10)", () => {
  it("reads the line the issuer writes, with or without its line end", () => {
    const signature = Buffer.from(line, "base64");
    assert.deepEqual(decodeSealSig(bundle.sealSig), signature);
    assert.deepEqual(decodeSealSig(line), signature);
    assert.deepEqual(decodeSealSig(`${line}\r\n`), signature);
  });

  it("refuses text inserted into the line, whitespace, base64url, missing padding, spare bits and a second line", () => {
    const middle = line.length / 2;
    const variants = {
      "words inserted": `${line.slice(0, middle)} approved by the FDA ${line.slice(middle)}\n`,
      "punctuation inserted": `${line.slice(0, middle)}!!${line.slice(middle)}\n`,
      "a line break inside": `${line.slice(0, middle)}\n${line.slice(middle)}\n`,
      "leading space": ` ${line}\n`,
      "base64url alphabet": `${line.replaceAll("+", "-").replaceAll("/", "_")}\n`,
      "no padding": `${line.slice(0, -2)}\n`,
      "non-zero pad bits": `${line.slice(0, 85)}${line[85] === "B" ? "C" : "B"}==\n`,
      "a second line": `${bundle.sealSig}note: approved\n`,
      "two signatures": `${line}${line}\n`,
      empty: "",
    };
    for (const [name, text] of Object.entries(variants)) {
      if (name === "base64url alphabet" && !/[+/]/.test(line)) continue;
      assert.equal(decodeSealSig(text), null, name);
    }
  });

  it("a seal folder whose seal.sig has text inserted is INVALID with SEAL_SIG_MALFORMED, not VERIFIED", () => {
    const middle = line.length / 2;
    // Characters outside the alphabet: Node's base64 decoder skips them and reads the genuine bytes.
    const forged = `${line.slice(0, middle)} ✔ ✔ ✔ ${line.slice(middle)}\n`;
    assert.deepEqual(
      Buffer.from(forged, "base64"),
      Buffer.from(line, "base64"),
      "a lenient read sees the genuine one",
    );
    const result = verifySealFolder(
      { sealSvg: bundle.sealSvg, sealJson: bundle.sealJson, sealSig: forged },
      trusted,
    );
    assert.equal(result.state, "INVALID");
    assert.equal(result.reason_code, "SEAL_SIG_MALFORMED");
    assert.match(result.reason, /seal\.sig is not one line of standard base64/);
    const genuine = verifySealFolder(
      { sealSvg: bundle.sealSvg, sealJson: bundle.sealJson, sealSig: bundle.sealSig },
      trusted,
    );
    assert.equal(genuine.state, "VERIFIED", genuine.reason);
  });
});
