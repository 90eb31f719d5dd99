import type { ServerResponse } from "node:http";

/**
 * Counts the body bytes written to a response, whoever writes them (Fastify piping a stream, or a
 * route that hijacked the reply), and reports the total once when the response closes.
 */
export function countBodyBytes(res: ServerResponse, report: (bytes: number) => void): void {
  let bytes = 0;
  const add = (chunk: unknown, encoding: unknown) => {
    if (typeof chunk === "string")
      bytes += Buffer.byteLength(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8");
    else if (chunk instanceof Uint8Array) bytes += chunk.byteLength;
  };
  const write = res.write.bind(res);
  const end = res.end.bind(res);
  res.write = ((chunk: unknown, encoding?: unknown, callback?: unknown) => {
    add(chunk, encoding);
    return write(chunk as never, encoding as never, callback as never);
  }) as typeof res.write;
  res.end = ((chunk?: unknown, encoding?: unknown, callback?: unknown) => {
    if (typeof chunk !== "function") add(chunk, encoding);
    return end(chunk as never, encoding as never, callback as never);
  }) as typeof res.end;
  res.once("close", () => report(bytes));
}
