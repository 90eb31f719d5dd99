import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { optimize } from "svgo";
import { canonicalBytes } from "../canonical-json.ts";
import { generateSigningKey, signBytes, toTrustedKey } from "../keys.ts";
import { formatSealToken, parseSealToken } from "./embedded-seal.ts";
import { renderPresealSvg, renderSealSvg } from "./render-seal-svg.ts";
import { ringSegmentPath } from "./ring-channel.ts";
import { makeSealFixture } from "./seal-fixture.ts";
import { computeBarcodeDigest, type SealPayload } from "./seal-payload.ts";
import { parseSvgDocument } from "./svg-document.ts";
import {
  decodeSealChannels,
  refuseOversizeSeal,
  SEAL_SVG_CAPS,
  type SealState,
  verifySealSvg,
} from "./verify-seal-svg.ts";

const { bundle, key, trusted } = makeSealFixture();

function stateOf(svg: string, keys = trusted): SealState {
  return verifySealSvg(svg, keys).state;
}

/** Replaces the embedded payload (both copies) while keeping the original signature. */
function withPayload(svg: string, payload: Record<string, unknown>): string {
  const original = parseSealToken(/<desc>([^<]*)<\/desc>/.exec(svg)?.[1] ?? "");
  assert.ok(original);
  const bytes = canonicalBytes(payload);
  const token = formatSealToken({ ...original, payloadBytes: bytes });
  return svg
    .replace(/<desc>[^<]*<\/desc>/, `<desc>${token}</desc>`)
    .replace(/(<svcseal:payload[^>]*>)[^<]*/, `$1${bytes.toString("base64url")}`);
}

describe("renderSealSvg", () => {
  it("is deterministic: same payload and signature, same bytes", () => {
    const signature = Buffer.from(bundle.sealSig, "base64");
    assert.equal(renderSealSvg(bundle.payload, signature), renderSealSvg(bundle.payload, signature));
    assert.equal(renderSealSvg(bundle.payload, signature), bundle.sealSvg);
  });

  it("shows a person the run, project, issue date, short seal id and where to verify", () => {
    for (const text of [
      "run_20261121T101500Z",
      "demo-project",
      "2026-11-21T10:20:00Z",
      "seal seal_0123456789a",
      "svc seal verify",
    ]) {
      assert.ok(bundle.sealSvg.includes(text), text);
    }
  });

  it("refuses a payload whose barcode digest does not match its hashes", () => {
    const payload = { ...bundle.payload, barcode_digest: "0".repeat(64) };
    assert.throws(() => renderSealSvg(payload, Buffer.alloc(64)), /barcode_digest/);
  });
});

describe("verifySealSvg", () => {
  it("says VERIFIED for an untouched seal, with every check passing", () => {
    const result = verifySealSvg(bundle.sealSvg, trusted);
    assert.equal(result.state, "VERIFIED", result.reason);
    assert.deepEqual(
      result.checks.map((check) => [check.name, check.ok]),
      [
        ["svg_readable", true],
        ["embedded_seal", true],
        ["payload_schema", true],
        ["key_trusted", true],
        ["signature", true],
        ["barcode_digest", true],
        ["canonical_image", true],
        ["ring_channel", true],
        ["barcode_channel", true],
      ],
    );
    assert.equal(result.reason_code, null);
    assert.equal((result.payload as SealPayload).seal_id, bundle.payload.seal_id);
    assert.equal(result.canonical_svg, bundle.sealSvg, "the trusted picture is the issued one");
  });

  it("verifies a seal with a verification link in its QR code", () => {
    const linked = makeSealFixture({ verify_url: "https://verify.example/seal" });
    assert.equal(stateOf(linked.bundle.sealSvg, linked.trusted), "VERIFIED");
  });

  it("reads back the densest QR code a seal can carry (a 200-character verification link)", () => {
    const url = `https://verify.example/${"a".repeat(200 - "https://verify.example/".length)}`;
    const linked = makeSealFixture({ verify_url: url });
    const result = verifySealSvg(linked.bundle.sealSvg, linked.trusted);
    assert.equal(result.state, "VERIFIED", result.reason);
    assert.ok(result.checks.some((check) => check.name === "barcode_channel" && check.ok));
  });

  describe("tamper matrix", () => {
    const changed: Record<string, unknown> = {
      seal_id: "seal_ffffffffffffffffffffffffffffffff",
      principal: "someone-else@example.com",
      run_id: "run_other",
      project_id: "other-project",
      mode: "deep",
      module_id: "other",
      category_id: "SMALL_MOLECULE__HAS_LABELED_ASSAYS",
      image: { reference: "registry.example/svc/runner:6.6.6", digest: null },
      inputs_sha256: "1".repeat(64),
      run_manifest_sha256: "2".repeat(64),
      outputs_sha256: "3".repeat(64),
      barcode_digest: "4".repeat(64),
      issued_at: "2026-11-22T00:00:00Z",
      issuer: "https://evil.example",
      verify_url: "https://evil.example/verify",
    };
    for (const [field, value] of Object.entries(changed)) {
      it(`a changed ${field} is INVALID`, () => {
        const result = verifySealSvg(
          withPayload(bundle.sealSvg, { ...bundle.payload, [field]: value }),
          trusted,
        );
        assert.equal(result.state, "INVALID", result.reason);
        assert.ok(result.checks.some((check) => check.name === "signature" && !check.ok));
      });
    }

    it("a changed key_id is INVALID", () => {
      const other = generateSigningKey();
      const result = verifySealSvg(withPayload(bundle.sealSvg, { ...bundle.payload, key_id: other.keyId }), [
        ...trusted,
        toTrustedKey(other.publicKey),
      ]);
      assert.equal(result.state, "INVALID");
    });

    it("a payload consistent with its channels but re-signed by an untrusted key is UNVERIFIED", () => {
      const impostor = makeSealFixture({}, generateSigningKey());
      const result = verifySealSvg(impostor.bundle.sealSvg, trusted);
      assert.equal(result.state, "UNVERIFIED");
      assert.match(result.reason, /not trusted/);
    });

    it("a key used outside its validity window is UNVERIFIED", () => {
      const windowed = [toTrustedKey(key.publicKey, { notBefore: "2027-01-01T00:00:00Z" })];
      assert.equal(stateOf(bundle.sealSvg, windowed), "UNVERIFIED");
    });

    it("a flipped signature bit is INVALID", () => {
      const signature = Buffer.from(bundle.sealSig, "base64");
      signature[10] = (signature[10] as number) ^ 0x01;
      assert.equal(stateOf(renderSealSvg(bundle.payload, signature)), "INVALID");
    });

    it("a signature over the right payload by another key under the trusted key id is INVALID", () => {
      const signature = signBytes(generateSigningKey(), canonicalBytes(bundle.payload));
      assert.equal(stateOf(renderSealSvg(bundle.payload, signature)), "INVALID");
    });

    /** The upload is refused by the image comparison; the decoders alone refuse it too. */
    function assertRefusedTwice(tampered: string, channel: "ring_channel" | "barcode_channel") {
      assert.notEqual(tampered, bundle.sealSvg);
      const result = verifySealSvg(tampered, trusted);
      assert.equal(result.state, "INVALID");
      assert.equal(result.reason_code, "IMAGE_NOT_CANONICAL");
      assert.match(result.reason, /\/svg\[1\]\/(g\[1\]\/)?path\[\d+\]: attribute d/);
      const parsed = parseSvgDocument(tampered);
      assert.ok(parsed.ok);
      const decoded = decodeSealChannels(parsed.elements, bundle.payload);
      const failed = decoded.find((check) => check.name === channel);
      assert.equal(failed?.ok, false, `${channel} decoder alone refuses it`);
      return { result, failed };
    }

    it("one ring segment moved to the other track is INVALID, by the image and by the ring decoder", () => {
      const bit0 = ringSegmentPath(5, 0);
      const bit1 = ringSegmentPath(5, 1);
      const svg = bundle.sealSvg;
      assertRefusedTwice(
        svg.includes(bit0) ? svg.replace(bit0, bit1) : svg.replace(bit1, bit0),
        "ring_channel",
      );
    });

    it("one ring segment removed is INVALID, by the image and by the ring decoder", () => {
      const tampered = bundle.sealSvg.replace(/<path d="[^"]*"\/>\n/, "");
      const result = verifySealSvg(tampered, trusted);
      assert.equal(result.reason_code, "IMAGE_NOT_CANONICAL");
      const parsed = parseSvgDocument(tampered);
      assert.ok(parsed.ok);
      const ring = decodeSealChannels(parsed.elements, bundle.payload)[0];
      assert.match(ring?.detail ?? "", /ring slot 0 has 0 segments/);
    });

    it("one QR module added is INVALID even though error correction would still decode it", () => {
      assertRefusedTwice(
        bundle.sealSvg.replace(/(<path fill="#000" d=")/, "$1M166 176h3v3h-3Z"),
        "barcode_channel",
      );
    });

    it("one QR module removed is INVALID", () => {
      const qrPath = /<path fill="#000" d="([^"]*)"/.exec(bundle.sealSvg)?.[1] ?? "";
      const runs = qrPath.split("M").filter(Boolean);
      const middle = runs[Math.floor(runs.length / 2)] as string;
      const [x, y, , w] = middle.match(/\d+/g)?.map(Number) ?? [];
      // Shorten one run by one module (its last module becomes light).
      const shortened = `M${x} ${y}h${(w as number) - 3}v3h-${(w as number) - 3}Z`;
      assertRefusedTwice(
        bundle.sealSvg.replace(`M${middle}`, (w as number) > 3 ? shortened : ""),
        "barcode_channel",
      );
    });

    it("a hairline in the QR quiet zone, thinner than the decoder's pixels, is refused by the decoder too", () => {
      // 0.1 units wide: it covers no pixel centre at any resolution the decoder rasterises at,
      // so only the geometric quiet-zone check sees it
      assertRefusedTwice(
        bundle.sealSvg.replace(/(<path fill="#000" d=")/, "$1M161.3 171.2h0.1v30h-0.1Z"),
        "barcode_channel",
      );
    });

    it("reads back every QR size the format draws, from the shortest content to a 200-character link", () => {
      for (const verify_url of [null, "https://v.example/s", `https://verify.example/${"p".repeat(176)}`]) {
        const fixture = makeSealFixture({ verify_url }, key);
        const parsed = parseSvgDocument(fixture.bundle.sealSvg);
        assert.ok(parsed.ok);
        const barcode = decodeSealChannels(parsed.elements, fixture.bundle.payload)[1];
        assert.deepEqual(
          barcode,
          { name: "barcode_channel", ok: true, detail: "QR carries the barcode digest" },
          String(verify_url),
        );
      }
    });

    it("the whole QR code removed is INVALID", () => {
      assert.equal(stateOf(bundle.sealSvg.replace(/<path fill="#000" d="[^"]*"\/>/, "")), "INVALID");
    });

    it("desc and metadata copies that disagree are INVALID", () => {
      const other = makeSealFixture({ run_id: "run_other" }, key);
      const mixed = bundle.sealSvg.replace(
        /<desc>[^<]*<\/desc>/,
        /<desc>[^<]*<\/desc>/.exec(other.bundle.sealSvg)?.[0] ?? "",
      );
      assert.match(verifySealSvg(mixed, trusted).reason, /disagree/);
    });

    it("a payload that is not canonical JSON is INVALID", () => {
      const token = parseSealToken(/<desc>([^<]*)<\/desc>/.exec(bundle.sealSvg)?.[1] ?? "");
      assert.ok(token);
      const pretty = Buffer.from(JSON.stringify(bundle.payload, null, 1));
      const svg = bundle.sealSvg
        .replace(/<desc>[^<]*<\/desc>/, `<desc>${formatSealToken({ ...token, payloadBytes: pretty })}</desc>`)
        .replace(/(<svcseal:payload[^>]*>)[^<]*/, `$1${pretty.toString("base64url")}`);
      assert.match(verifySealSvg(svg, trusted).reason, /not canonical/);
    });

    it("a barcode digest recomputed for tampered hashes still fails the signature", () => {
      const hashes = { ...bundle.payload, outputs_sha256: "9".repeat(64) };
      const forged = { ...hashes, barcode_digest: computeBarcodeDigest(hashes) };
      assert.equal(stateOf(withPayload(bundle.sealSvg, forged)), "INVALID");
    });
  });

  describe("what tools do to SVG files", () => {
    function prettyPrint(svg: string): string {
      let depth = 0;
      return svg
        .replace(/></g, ">\n<")
        .split("\n")
        .map((line) => {
          if (line.startsWith("</")) depth = Math.max(0, depth - 1);
          const indented = `${"    ".repeat(depth)}${line}`;
          if (/^<[^/?!][^>]*[^/]>$/.test(line) && !line.includes("</")) depth++;
          return indented;
        })
        .join("\r\n");
    }

    it("stays VERIFIED when pretty-printed: every element indented, CRLF line ends", () => {
      const pretty = prettyPrint(bundle.sealSvg);
      assert.notEqual(pretty, bundle.sealSvg);
      const result = verifySealSvg(pretty, trusted);
      assert.equal(result.state, "VERIFIED", result.reason);
    });

    it("stays VERIFIED without the XML declaration, with single quotes and reordered attributes", () => {
      const rewritten = bundle.sealSvg
        .replace(/^<\?xml[^>]*>\n/, "")
        .replace(/<circle cx="(\d+)" cy="(\d+)" r="(\d+)"/g, "<circle r='$3' cy='$2' cx='$1'");
      assert.notEqual(rewritten, bundle.sealSvg);
      assert.equal(stateOf(rewritten), "VERIFIED");
    });

    it("is INVALID when a number is respelled (126., padded, 240.0, 2.4e2, a comma in path data): values are compared as rendered", () => {
      // issue 23 item 1: Chromium rejects `126.` in y and path data, so a verifier that compared
      // parsed numbers VERIFIED a picture whose labels are drawn off the canvas and paths not at all.
      const respellings: [RegExp, string, RegExp][] = [
        [/(<text [^>]*)y="126"/, '$1y="126."', /text\[2\]: attribute y is "126\.", expected "126"/],
        [/(<text [^>]*)y="126"/, '$1y=" 126 "', /text\[2\]: attribute y is " 126 ", expected "126"/],
        [/font-size="11"/, 'font-size="11."', /attribute font-size is "11\."/],
        [/(<path fill="#000" d="M)(\d+)/, "$1$2.", /path\[\d+\]: attribute d is "M\d+\./],
        [/(<path d="M)(\d+)/, "$1$2.", /g\[1\]\/path\[1\]: attribute d is/],
        [/cx="240"/, 'cx="240.0"', /attribute cx is "240\.0"/],
        [/cy="240"/, 'cy="2.4e2"', /attribute cy is "2\.4e2"/],
        [/(<path fill="#000" d="M)(\d+) (\d+)/, "$1$2,$3", /attribute d is/],
      ];
      for (const [from, to, reason] of respellings) {
        const rewritten = bundle.sealSvg.replace(from, to);
        assert.notEqual(rewritten, bundle.sealSvg, String(from));
        const result = verifySealSvg(rewritten, trusted);
        assert.equal(result.state, "INVALID", to);
        assert.equal(result.reason_code, "IMAGE_NOT_CANONICAL", to);
        assert.match(result.reason, reason);
      }
    });

    it("is INVALID after svgo (metadata stripped, paths rewritten): svc seal render writes it again", () => {
      const optimized = optimize(bundle.sealSvg).data;
      const result = verifySealSvg(optimized, trusted);
      assert.equal(result.state, "INVALID");
      assert.equal(result.reason_code, "IMAGE_NOT_CANONICAL");
      assert.equal(result.canonical_svg, bundle.sealSvg, "the verifier still hands back the trusted picture");
    });

    it("is INVALID when a pretty-printer wraps the desc token: text is compared code point by code point", () => {
      const wrapped = bundle.sealSvg.replace(
        /<desc>([^<]*)<\/desc>/,
        (_, token: string) => `<desc>\n  ${token.match(/.{1,76}/g)?.join("\n  ")}\n</desc>`,
      );
      const result = verifySealSvg(wrapped, trusted);
      assert.equal(result.reason_code, "IMAGE_NOT_CANONICAL");
      assert.match(result.reason, /\/svg\[1\]\/desc\[1\]: text is/);
    });

    it("is INVALID when a path's separators are not valid path data (two commas)", () => {
      const broken = bundle.sealSvg.replace(/(<path fill="#000" d="M)(\d+) (\d+)/, "$1$2,,$3");
      assert.equal(verifySealSvg(broken, trusted).reason_code, "IMAGE_NOT_CANONICAL");
    });
  });

  describe("pre-seal", () => {
    it("is PRESEAL_UNSIGNED: an unsigned claim, never success (issue 23 item 7)", () => {
      const svg = renderPresealSvg({
        seal_version: "svc.preseal/v1",
        run_id: "run_1",
        project_id: "p",
        mode: "standard",
        module_id: "computational",
        category_id: "SMALL_MOLECULE__LIGAND_ONLY__NO_STRUCTURE__NO_ASSAYS",
        image: { reference: "runner:1.0.0", digest: null },
        inputs_sha256: "a".repeat(64),
        run_manifest_sha256: "b".repeat(64),
        outputs_sha256: "c".repeat(64),
        created_at: "2026-11-21T10:00:00Z",
        reason: "run_complete_unreachable",
      });
      const result = verifySealSvg(svg, trusted);
      assert.equal(result.state, "PRESEAL_UNSIGNED");
      assert.equal(result.reason_code, "PRESEAL_UNSIGNED");
      assert.match(result.reason, /unsigned claim/);
    });
  });

  describe("hostile and broken input is refused cleanly", () => {
    const cases: Record<string, string | Uint8Array> = {
      "billion laughs": `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]><svg xmlns="http://www.w3.org/2000/svg"><desc>&lol3;</desc></svg>`,
      "external entity": `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg"><desc>&xxe;</desc></svg>`,
      "undefined entity": `<svg xmlns="http://www.w3.org/2000/svg"><desc>&xxe;</desc></svg>`,
      "50 MiB": `<svg xmlns="http://www.w3.org/2000/svg"><desc>${"A".repeat(50 * 1024 * 1024)}</desc></svg>`,
      "deep nesting": `<svg xmlns="http://www.w3.org/2000/svg">${"<g>".repeat(10_000)}${"</g>".repeat(10_000)}</svg>`,
      "element flood": `<svg xmlns="http://www.w3.org/2000/svg">${"<g/>".repeat(30_000)}</svg>`,
      truncated: bundle.sealSvg.slice(0, bundle.sealSvg.length / 2),
      "not XML": "%PDF-1.4 this is not an svg",
      empty: "",
      "not UTF-8": new Uint8Array([0x3c, 0x73, 0xff, 0xfe, 0x00]),
      "HTML root": `<html><body>hi</body></html>`,
      "SVG without a seal": `<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>`,
      "garbage token": `<svg xmlns="http://www.w3.org/2000/svg"><desc>svc.seal/v1;payload=!!!;sig=@@</desc></svg>`,
      "payload not JSON": `<svg xmlns="http://www.w3.org/2000/svg"><desc>svc.seal/v1;key=k;payload=${Buffer.from("{nope").toString("base64url")};sig=AA</desc></svg>`,
    };
    for (const [name, input] of Object.entries(cases)) {
      it(`${name}: INVALID with a reason, no exception`, () => {
        const result = verifySealSvg(input, trusted);
        assert.equal(result.state, "INVALID");
        assert.ok(result.reason.length > 0);
      });
    }

    it("an upload over the byte cap gets, from its size alone, the verdict its bytes get", () => {
      assert.equal(refuseOversizeSeal(SEAL_SVG_CAPS.maxBytes), null);
      assert.equal(refuseOversizeSeal(bundle.sealSvg.length), null);
      const size = SEAL_SVG_CAPS.maxBytes + 1;
      const bytes = new Uint8Array(size).fill(0x20);
      const fromSize = refuseOversizeSeal(size);
      assert.deepEqual(fromSize, verifySealSvg(bytes, trusted));
      assert.equal(fromSize?.reason_code, "SVG_TOO_COMPLEX");
      assert.match(fromSize?.reason ?? "", /input is 262145 bytes; the limit is 262144/);
    });

    it("a comment is refused naming the element it sits in, however many siblings that element has", () => {
      const body = `<g>${"<g/>".repeat(700)}<g><text>x<!-- decoy --></text></g></g>\n</svg>`;
      const result = verifySealSvg(bundle.sealSvg.replace("</svg>", body), trusted);
      assert.equal(result.reason_code, "IMAGE_NOT_CANONICAL");
      assert.match(
        result.reason,
        /canonical_image: \/svg\[1\]\/g\[2\]\/g\[701\]\/text\[1\]: contains a comment/,
      );
      let texts = 0;
      const inThird = bundle.sealSvg.replace(/<text [^>]*>/g, (open) =>
        ++texts === 3 ? `${open}<?pi?>` : open,
      );
      assert.match(
        verifySealSvg(inThird, trusted).reason,
        /\/svg\[1\]\/text\[3\]: contains a processing instruction/,
      );
    });

    it("more comments, CDATA sections and processing instructions than a seal could need is SVG_TOO_COMPLEX", () => {
      const flooded = (count: number) =>
        bundle.sealSvg.replace("</svg>", `<g>${"<?a?>".repeat(count)}</g></svg>`);
      assert.equal(
        verifySealSvg(flooded(SEAL_SVG_CAPS.maxMarkup), trusted).reason_code,
        "IMAGE_NOT_CANONICAL",
      );
      const over = verifySealSvg(flooded(SEAL_SVG_CAPS.maxMarkup + 1), trusted);
      assert.equal(over.reason_code, "SVG_TOO_COMPLEX");
      assert.match(over.reason, /more than 64 comments, CDATA sections or processing instructions/);
    });

    it("more attributes than a seal could need is SVG_TOO_COMPLEX, however they are spread", () => {
      const parsed = parseSvgDocument(bundle.sealSvg);
      assert.ok(parsed.ok);
      const count = parsed.elements.reduce((sum, element) => sum + element.rawAttributes.size, 0);
      assert.ok(count < SEAL_SVG_CAPS.maxAttributes / 5, `a seal has ${count} attributes`);
      const spread = `${'<g a="" b="" c="" d="" e="" f="" g="" h="" i="" j=""/>'.repeat(300)}</svg>`;
      const result = verifySealSvg(bundle.sealSvg.replace("</svg>", spread), trusted);
      assert.equal(result.reason_code, "SVG_TOO_COMPLEX");
      assert.match(result.reason, /more than 2000 attributes/);
    });

    it("random mutations of a real seal never throw and never verify", () => {
      let seed = 42;
      const random = () => {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        return seed / 2 ** 31;
      };
      const bytes = Buffer.from(bundle.sealSvg);
      for (let round = 0; round < 40; round++) {
        const mutated = Buffer.from(bytes);
        for (let i = 0; i < 1 + Math.floor(random() * 4); i++) {
          mutated[Math.floor(random() * mutated.length)] = Math.floor(random() * 256);
        }
        if (mutated.equals(bytes)) continue;
        const result = verifySealSvg(mutated, trusted);
        assert.ok(["INVALID", "VERIFIED", "UNVERIFIED"].includes(result.state));
        if (result.state === "VERIFIED") {
          // Only a change in non-semantic bytes (visible text, whitespace) may still verify.
          assert.equal(verifySealSvg(mutated, trusted).payload?.seal_version, "svc.seal/v2");
        }
      }
    });
  });
});
