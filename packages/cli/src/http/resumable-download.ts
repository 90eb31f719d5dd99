import { createWriteStream } from "node:fs";
import { readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { CliError } from "../cli-error.ts";
import type { PreflightClient } from "./preflight-client.ts";
import { startByteProgress } from "./progress-bar.ts";

/** What a download did. */
export interface DownloadResult {
  path: string;
  bytes: number;
  /** Bytes that were already there from an interrupted attempt. */
  resumedFrom: number;
}

interface PartState {
  etag: string;
  url: string;
}

async function sizeOf(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch {
    return 0;
  }
}

async function readPartState(path: string): Promise<PartState | null> {
  try {
    return JSON.parse(await readFile(path, "utf8")) as PartState;
  } catch {
    return null;
  }
}

/**
 * Downloads one output file to `destination`, through `<destination>.part`. An interrupted
 * attempt is resumed with `Range` + `If-Range` (RFC 9110 §14.2, §13.1.5): the server sends the
 * rest when the file is unchanged, the whole file when it changed (we then start over). The
 * destination appears only once complete, so a failure never leaves a half-written file under
 * the final name.
 */
export async function downloadOutput(
  client: PreflightClient,
  query: { runId: string; path: string },
  destination: string,
  progressStream: NodeJS.WriteStream,
): Promise<DownloadResult> {
  const part = `${destination}.part`;
  const stateFile = `${destination}.part.json`;
  const identity = `${client.target.baseUrl}|${query.runId}|${query.path}`;
  const state = await readPartState(stateFile);
  let offset = state && state.url === identity ? await sizeOf(part) : 0;
  if (offset === 0) await rm(part, { force: true });
  const headers: Record<string, string> =
    offset > 0 && state ? { range: `bytes=${offset}-`, "if-range": state.etag } : {};
  const response = await client.stream("/api/outputs/download", query, { headers, accept: [416] });
  // 416: the part already holds the whole file (an attempt died between the last byte and the rename).
  if (response.status === 416) {
    await response.body?.cancel();
    if (offset === 0)
      throw new CliError("SERVICE_REFUSED", `the preflight service refused the range of ${query.path}`);
    await rename(part, destination);
    await rm(stateFile, { force: true });
    return { path: destination, bytes: offset, resumedFrom: offset };
  }
  if (response.status === 200) offset = 0;
  const etag = response.headers.get("etag");
  if (etag) await writeFile(stateFile, JSON.stringify({ etag, url: identity } satisfies PartState));
  const length = Number(response.headers.get("content-length") ?? Number.NaN);
  const total = Number.isFinite(length) ? offset + length : null;
  const progress = startByteProgress(query.path, total, offset, progressStream);
  let received = offset;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.length;
      progress.update(received);
      done(null, chunk);
    },
  });
  try {
    if (!response.body) throw new Error("empty body");
    await pipeline(
      Readable.fromWeb(response.body as import("node:stream/web").ReadableStream),
      counter,
      createWriteStream(part, { flags: offset > 0 ? "a" : "w", mode: 0o644 }),
    );
  } catch (error) {
    progress.stop();
    throw new CliError(
      "SERVICE_UNREACHABLE",
      `the download of ${query.path} stopped after ${received} bytes (${(error as Error).message}); run the same command again to resume`,
      { cause: error },
    );
  }
  progress.stop();
  if (total !== null && received !== total)
    throw new CliError(
      "SERVICE_UNREACHABLE",
      `the download of ${query.path} stopped at ${received} of ${total} bytes; run the same command again to resume`,
    );
  await rename(part, destination);
  await rm(stateFile, { force: true });
  return { path: destination, bytes: received, resumedFrom: offset };
}

/** Streams a whole response to `destination` through a `.part` file (the repro pack has no Range). */
export async function saveStream(
  response: Response,
  label: string,
  destination: string,
  progressStream: NodeJS.WriteStream,
): Promise<number> {
  const part = `${destination}.part`;
  const progress = startByteProgress(label, null, 0, progressStream);
  let received = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.length;
      progress.update(received);
      done(null, chunk);
    },
  });
  try {
    if (!response.body) throw new Error("empty body");
    await pipeline(
      Readable.fromWeb(response.body as import("node:stream/web").ReadableStream),
      counter,
      createWriteStream(part, { mode: 0o644 }),
    );
  } catch (error) {
    progress.stop();
    await rm(part, { force: true });
    throw new CliError(
      "SERVICE_UNREACHABLE",
      `${label} stopped after ${received} bytes (${(error as Error).message}); run the command again`,
      { cause: error },
    );
  }
  progress.stop();
  await rename(part, destination);
  return received;
}
