import { stat } from "node:fs/promises";
import { RunnerError, type RunnerErrorCode } from "../runner-error.ts";
import { formatBytes, sniffInputFile } from "./input-file-limits.ts";

/**
 * Refuses, before anything is read as a table, an input file that is empty, binary or (with
 * `maxBytes`) too large, with `code` naming the file; returns its size.
 */
export async function assertTextInput(
  path: string,
  file: string,
  code: RunnerErrorCode,
  maxBytes?: { readonly bytes: number; readonly reason: string },
): Promise<number> {
  // The size first: a file past the limit is refused without a byte of it read.
  const { size } = await stat(path);
  if (maxBytes !== undefined && size > maxBytes.bytes)
    throw new RunnerError(
      code,
      `${file}: ${formatBytes(size)}, larger than ${formatBytes(maxBytes.bytes)}: ${maxBytes.reason}`,
    );
  const sniffed = await sniffInputFile(path);
  if (sniffed.kind === "empty")
    throw new RunnerError(code, `${file}: the file is empty (${formatBytes(sniffed.size)})`);
  if (sniffed.kind === "binary")
    throw new RunnerError(
      code,
      `${file}: a binary file (${formatBytes(sniffed.size)}, ${sniffed.why}), not a text table; nothing of it is shown`,
    );
  return sniffed.size;
}
