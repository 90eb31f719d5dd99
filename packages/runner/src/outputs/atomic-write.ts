import { once } from "node:events";
import { createWriteStream, type WriteStream } from "node:fs";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.tmp-${process.pid}`);
}

/** Writes a file atomically: a temp file in the same folder, then rename (no torn files). */
export async function writeFileAtomic(path: string, data: string | Uint8Array, mode?: number): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temp = tempPathFor(path);
  await writeFile(temp, data, mode === undefined ? {} : { mode });
  await rename(temp, path);
}

/** Pretty JSON with a final newline; key order is the object's, so equal data gives equal bytes. */
export function formatJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

export function writeJsonAtomic(path: string, value: unknown): Promise<void> {
  return writeFileAtomic(path, formatJson(value));
}

/**
 * A large output written in pieces (respecting back-pressure, so memory stays flat) to a temp
 * file, renamed into place on commit, removed on abort.
 */
/** Characters gathered before one stream write (see {@link StreamingFile.write}). */
const CHUNK = 64 * 1024;

export class StreamingFile {
  readonly path: string;
  readonly #temp: string;
  readonly #stream: WriteStream;
  #pending: string[] = [];
  #pendingLength = 0;

  private constructor(path: string, temp: string, stream: WriteStream) {
    this.path = path;
    this.#temp = temp;
    this.#stream = stream;
  }

  static async open(path: string): Promise<StreamingFile> {
    await mkdir(dirname(path), { recursive: true });
    const temp = tempPathFor(path);
    const stream = createWriteStream(temp);
    await once(stream, "open");
    return new StreamingFile(path, temp, stream);
  }

  /**
   * Appends `text`. Small writes are gathered and handed to the stream in chunks of about
   * {@link CHUNK} characters: a run makes ~15 small writes per compound (raw files, combined
   * outputs, validation), and one stream write each cost the main thread more than the text
   * (issue 10 item 4).
   */
  async write(text: string): Promise<void> {
    this.#pending.push(text);
    this.#pendingLength += text.length;
    if (this.#pendingLength >= CHUNK) await this.#flush();
  }

  async #flush(): Promise<void> {
    if (this.#pending.length === 0) return;
    const chunk = this.#pending.join("");
    this.#pending = [];
    this.#pendingLength = 0;
    if (!this.#stream.write(chunk)) await once(this.#stream, "drain");
  }

  async commit(): Promise<void> {
    await this.#flush();
    this.#stream.end();
    await once(this.#stream, "finish");
    await rename(this.#temp, this.path);
  }

  async abort(): Promise<void> {
    // Writes still queued fail once the stream is destroyed; that is the point of aborting.
    this.#stream.on("error", () => {});
    const closed = new Promise<void>((resolve) => {
      if (this.#stream.closed) resolve();
      else this.#stream.on("close", () => resolve());
    });
    this.#stream.destroy();
    await closed;
    await rm(this.#temp, { force: true });
  }
}
