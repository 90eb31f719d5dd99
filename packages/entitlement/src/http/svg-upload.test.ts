import assert from "node:assert/strict";
import { PassThrough, Readable } from "node:stream";
import { describe, it } from "node:test";
import { SEAL_SVG_CAPS } from "@svc/core";
import { readSvgBody, SvgUpload } from "./svg-upload.ts";
import { UploadBudget } from "./upload-budget.ts";

const LIMIT = 1024 * 1024;
const chunksOf = (bytes: Uint8Array, size: number) => {
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) chunks.push(Buffer.from(bytes.subarray(at, at + size)));
  return Readable.from(chunks);
};
const pattern = (length: number) => Uint8Array.from({ length }, (_, i) => (i * 7) % 251);

describe("an uploaded seal as the service holds it (issue 9 item 7)", () => {
  it("keeps a body within the verifier's cap, byte for byte, in a buffer of its own, handed over once", async () => {
    const body = pattern(40_000);
    for (const header of [String(body.length), undefined]) {
      const upload = await readSvgBody(chunksOf(body, 4096), header, LIMIT);
      assert.equal(upload.byteLength, body.length);
      const bytes = upload.take();
      assert.ok(bytes);
      assert.deepEqual(bytes, body);
      assert.equal(bytes.byteOffset, 0);
      assert.equal(bytes.buffer.byteLength, body.length, "nothing else shares the buffer it transfers");
      assert.equal(upload.take(), null, "the bytes are handed over once");
    }
  });

  it("counts a body over the verifier's cap without keeping it", async () => {
    const body = pattern(SEAL_SVG_CAPS.maxBytes + 10);
    for (const header of [String(body.length), undefined]) {
      const upload = await readSvgBody(chunksOf(body, 65_536), header, LIMIT);
      assert.equal(upload.byteLength, body.length);
      assert.equal(upload.take(), null);
    }
  });

  it("answers a body over the limit with Fastify's 413, announced or streamed", async () => {
    const body = pattern(LIMIT + 1);
    for (const header of [String(body.length), undefined]) {
      await assert.rejects(readSvgBody(chunksOf(body, 65_536), header, LIMIT), (error: Error) => {
        assert.equal((error as { statusCode?: number }).statusCode, 413);
        assert.equal((error as { code?: string }).code, "FST_ERR_CTP_BODY_TOO_LARGE");
        return true;
      });
    }
  });

  it("answers a body that is not as long as its Content-Length with Fastify's 400", async () => {
    await assert.rejects(readSvgBody(chunksOf(pattern(100), 10), "120", LIMIT), (error: Error) => {
      assert.equal((error as { statusCode?: number }).statusCode, 400);
      assert.equal((error as { code?: string }).code, "FST_ERR_CTP_INVALID_CONTENT_LENGTH");
      return true;
    });
  });

  it("copies bytes that share their buffer (a pooled Buffer) before they can be transferred", () => {
    const pooled = Buffer.from("<svg/>");
    assert.notEqual(pooled.buffer.byteLength, pooled.length, "Node pools small Buffers");
    const bytes = SvgUpload.of(pooled).take();
    assert.ok(bytes);
    assert.equal(Buffer.from(bytes).toString(), "<svg/>");
    assert.equal(bytes.buffer.byteLength, 6);
  });

  it("stops reading while the upload budget is in debt, then reads on to the end", async () => {
    const body = new PassThrough();
    // 1 byte of burst at 10 KB/s: the first 4 KB chunk puts the budget ~400 ms in debt
    const reading = readSvgBody(body, "8192", LIMIT, new UploadBudget(10_000, 1));
    body.write(Buffer.alloc(4096, 0x61));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(body.isPaused(), true, "paused after the chunk that went into debt");
    body.end(Buffer.alloc(4096, 0x62));
    const bytes = (await reading).take();
    assert.equal(bytes?.length, 8192);
    assert.equal(bytes?.[8191], 0x62);
  });
});
