import { constants } from "node:fs";
import { open } from "node:fs/promises";

/** A file of a run folder as a verifier reads it: its bytes, absent, or over its cap (not read). */
export type CappedRead =
  | { readonly kind: "file"; readonly bytes: Buffer }
  | { readonly kind: "absent" }
  | { readonly kind: "too_large"; readonly size: number; readonly cap: number };

/**
 * Reads a file of a run folder only when it is a regular file of at most `cap` bytes (issue 38
 * item 8): the size comes from the open descriptor (fstat) before any byte is read, so a 300 MB
 * file costs one stat. O_NOFOLLOW refuses a symbolic link: a link is not the file the seal
 * covers (svc-tree/v1 refuses links; verify.sh's find -type f skips them), so it reads as absent
 * and the coverage check names it (issue 38 item 7). Missing or not a regular file: absent.
 */
export async function readCappedFile(path: string, cap: number): Promise<CappedRead> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return { kind: "absent" };
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return { kind: "absent" };
    if (stats.size > cap) return { kind: "too_large", size: stats.size, cap };
    // read at most cap + 1 bytes: a file that grew after the stat is still refused, never read whole
    const buffer = Buffer.alloc(Math.min(stats.size, cap) + 1);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    if (length > cap) return { kind: "too_large", size: length, cap };
    return { kind: "file", bytes: buffer.subarray(0, length) };
  } finally {
    await handle.close();
  }
}
