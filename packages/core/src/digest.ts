import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";

/** SHA-256 of bytes or a UTF-8 string, lowercase hex. */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/**
 * SHA-256 of a file, streamed in fixed-size chunks so memory stays flat for multi-GB files.
 * Equal to `sha256sum <path>`.
 */
export async function sha256File(path: string): Promise<{ sha256: string; size: number }> {
  const hash = createHash("sha256");
  let size = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha256: hash.digest("hex"), size };
}
