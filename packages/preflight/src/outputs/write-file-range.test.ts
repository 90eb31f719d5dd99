import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdtemp, open, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { after, before, test } from "node:test";
import { writeFileRange } from "./write-file-range.ts";

let dir: string;
let path: string;
const content = randomBytes(3.5 * 1024 * 1024);

before(async () => {
  dir = await mkdtemp(join(tmpdir(), "svc-write-range-"));
  path = join(dir, "data.bin");
  await writeFile(path, content);
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

/**
 * A slow socket stand-in: it keeps each chunk by reference and reads it only when it reports the
 * write done, a tick later, so a buffer reused before that callback would show as corrupt bytes.
 */
function slowSink(options: { destroyAfterBytes?: number } = {}) {
  const received: Buffer[] = [];
  let total = 0;
  const sink = new Writable({
    highWaterMark: 1,
    write(chunk: Buffer, _encoding, callback) {
      setTimeout(() => {
        received.push(Buffer.from(chunk));
        total += chunk.length;
        callback();
        if (options.destroyAfterBytes !== undefined && total >= options.destroyAfterBytes) sink.destroy();
      }, 2);
    },
  });
  return { sink, bytes: () => Buffer.concat(received) };
}

test("copies the exact bytes of a multi-chunk file, never reusing a buffer the sink still holds", async () => {
  const handle = await open(path);
  const { sink, bytes } = slowSink();
  await writeFileRange(handle, 0, content.length - 1, sink);
  await handle.close();
  assert.ok(bytes().equals(content));
});

test("copies an inclusive byte range that starts and ends inside chunks", async () => {
  const handle = await open(path);
  const { sink, bytes } = slowSink();
  const start = 1_048_000;
  const end = 2_500_123;
  await writeFileRange(handle, start, end, sink);
  await handle.close();
  assert.ok(bytes().equals(content.subarray(start, end + 1)));
});

test("stops reading when the client goes away", async () => {
  const handle = await open(path);
  const { sink, bytes } = slowSink({ destroyAfterBytes: 1 });
  await writeFileRange(handle, 0, content.length - 1, sink);
  await handle.close();
  assert.ok(bytes().length < content.length);
});

test("fails when the file is shorter than the range it was asked for", async () => {
  const handle = await open(path);
  const { sink } = slowSink();
  await assert.rejects(writeFileRange(handle, 0, content.length + 10, sink), /ended at byte/);
  await handle.close();
});
