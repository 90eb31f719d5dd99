import { StreamingFile } from "./atomic-write.ts";

/** Where the streamed array sits: `["compounds"]` or, nested, `["result", "compounds"]`. */
export type ArrayPath = readonly [string, ...string[]];

/**
 * The one streaming JSON writer: a document whose single large array is written item by item
 * (memory stays flat, ARCHITECTURE "Streams"), with the fields known up front before it and
 * the fields known only at the end after it. Items are one per line so the file diffs and greps
 * well. Written to a temp file and renamed on `close`; `abort` leaves nothing behind.
 */
export class JsonArrayWriter {
  readonly #file: StreamingFile;
  readonly #depth: number;
  #first = true;

  private constructor(file: StreamingFile, depth: number) {
    this.#file = file;
    this.#depth = depth;
  }

  /** Opens `path` and writes `{...head, "<path[0]>": {... "<last>": [`. */
  static async open(
    path: string,
    head: Readonly<Record<string, unknown>>,
    arrayPath: ArrayPath,
  ): Promise<JsonArrayWriter> {
    const file = await StreamingFile.open(path);
    let prefix = openObject(head);
    arrayPath.forEach((key, at) => {
      prefix += `${JSON.stringify(key)}:${at === arrayPath.length - 1 ? "[" : "{"}`;
    });
    await file.write(prefix);
    return new JsonArrayWriter(file, arrayPath.length);
  }

  get path(): string {
    return this.#file.path;
  }

  async push(item: unknown): Promise<void> {
    await this.pushJson(JSON.stringify(item));
  }

  /** One item already serialized (`JSON.stringify` of it), e.g. written to two files but stringified once. */
  async pushJson(json: string): Promise<void> {
    await this.#file.write(`${this.#first ? "\n" : ",\n"}${json}`);
    this.#first = false;
  }

  /**
   * Closes the array and every enclosing object. `tails[0]` holds the fields after the array in
   * its own object, `tails[1]` those of the next object out, and so on (missing ones are empty).
   */
  async close(tails: readonly Readonly<Record<string, unknown>>[] = []): Promise<void> {
    let suffix = this.#first ? "]" : "\n]";
    for (let level = 0; level < this.#depth; level++) suffix += closeObject(tails[level] ?? {});
    await this.#file.write(`${suffix}\n`);
    await this.#file.commit();
  }

  abort(): Promise<void> {
    return this.#file.abort();
  }
}

function openObject(fields: Readonly<Record<string, unknown>>): string {
  const body = JSON.stringify(fields).slice(1, -1);
  return body === "" ? "{" : `{${body},`;
}

function closeObject(fields: Readonly<Record<string, unknown>>): string {
  const body = JSON.stringify(fields).slice(1, -1);
  return body === "" ? "}" : `,${body}}`;
}
