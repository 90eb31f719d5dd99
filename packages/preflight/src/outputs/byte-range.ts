/** An inclusive byte range of a representation (RFC 9110 §14.1.2). */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Interprets a `Range` header against a representation of `size` bytes (RFC 9110 §14.2):
 * `"none"` when there is no usable single range (absent, malformed or several ranges; the server
 * then sends the whole file, which RFC 9110 allows), `"unsatisfiable"` for a range outside the file
 * (416), else the clamped range.
 */
export function parseByteRange(
  header: string | undefined,
  size: number,
): ByteRange | "none" | "unsatisfiable" {
  if (header === undefined) return "none";
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return "none";
  const [, first = "", last = ""] = match;
  if (first === "" && last === "") return "none";
  if (first === "") {
    // suffix range: the last N bytes
    const length = Number(last);
    if (length === 0 || size === 0) return "unsatisfiable";
    return { start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  const end = last === "" ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== "" && Number(last) < start) return "none"; // invalid range-spec: ignore the header
  if (start >= size) return "unsatisfiable";
  return { start, end };
}
