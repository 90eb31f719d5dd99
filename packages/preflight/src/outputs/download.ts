import { constants } from "node:fs";
import { open } from "node:fs/promises";
import { basename, extname } from "node:path";
import type { Writable } from "node:stream";
import { PreflightError } from "../errors.ts";
import { parseByteRange } from "./byte-range.ts";
import { checkRelativePath, resolveInsideRun } from "./safe-path.ts";
import { writeFileRange } from "./write-file-range.ts";

const CONTENT_TYPES: Record<string, string> = {
  ".json": "application/json",
  ".html": "text/html; charset=utf-8",
  ".htm": "text/html; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".pdf": "application/pdf",
  ".csv": "text/csv; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".md": "text/markdown; charset=utf-8",
  ".pem": "application/x-pem-file",
  ".sh": "text/x-shellscript; charset=utf-8",
  ".tgz": "application/gzip",
  ".gz": "application/gzip",
  ".pdb": "chemical/x-pdb",
  ".sdf": "chemical/x-mdl-sdfile",
};

/** Request headers that shape a download (RFC 9110 §13, §14). */
export interface DownloadRequestHeaders {
  range?: string;
  ifRange?: string;
  ifNoneMatch?: string;
}

/** What the route sends: status, headers and, unless 304, the bytes. */
export interface DownloadResponse {
  status: 200 | 206 | 304;
  headers: Record<string, string>;
  /** Writes the bytes from the open descriptor to `destination`, then closes it; null for 304. */
  writeBody: ((destination: Writable) => Promise<void>) | null;
  /** Closes the descriptor when the body is not sent (HEAD). */
  discard: () => Promise<void>;
}

/** The MIME type served for an output file; unknown kinds are opaque bytes. */
export function contentTypeOf(path: string): string {
  return CONTENT_TYPES[extname(path).toLowerCase()] ?? "application/octet-stream";
}

/** `Content-Disposition: attachment` with an ASCII fallback and the exact UTF-8 name (RFC 6266 §4.3, RFC 8187). */
export function attachmentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * Prepares the download of one file under a run root: validates the path, refuses directories
 * and links out of the run, answers conditional and range requests. The file is opened once and
 * streamed from that descriptor, so a swap of the path after the check cannot change what is sent.
 */
export async function prepareDownload(
  runRoot: string,
  path: string,
  request: DownloadRequestHeaders,
): Promise<DownloadResponse> {
  const segments = checkRelativePath("path", path);
  const real = await resolveInsideRun(runRoot, segments);
  // O_NOFOLLOW: a link swapped in after the check is refused by the kernel, not followed.
  const handle = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === "ELOOP")
      throw new PreflightError("PATH_REFUSED", `path refused: ${segments.join("/")} is a symbolic link`);
    throw error;
  });
  let keepOpen = false;
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new PreflightError("INVALID_INPUT", "path names a directory, not a file");
    const etag = `"${info.ino.toString(16)}-${info.size.toString(16)}-${Math.trunc(info.mtimeMs).toString(16)}"`;
    const headers: Record<string, string> = {
      "content-type": contentTypeOf(real),
      "content-disposition": attachmentDisposition(basename(segments.at(-1) ?? "download")),
      etag,
      "last-modified": info.mtime.toUTCString(),
      "accept-ranges": "bytes",
      "cache-control": "private, no-cache",
      // HTML and SVG outputs must not run as pages of this origin.
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'none'; sandbox",
    };
    if (request.ifNoneMatch?.split(",").some((tag) => tag.trim() === etag))
      return { status: 304, headers, writeBody: null, discard: async () => {} };
    // RFC 9110 §13.1.5: a Range with a stale If-Range validator gets the whole representation.
    const range =
      request.ifRange !== undefined && request.ifRange !== etag
        ? "none"
        : parseByteRange(request.range, info.size);
    if (range === "unsatisfiable")
      throw new PreflightError(
        "RANGE_NOT_SATISFIABLE",
        `the range lies outside the file of ${info.size} bytes`,
        {
          "content-range": `bytes */${info.size}`,
        },
      );
    const start = range === "none" ? 0 : range.start;
    const end = range === "none" ? info.size - 1 : range.end;
    headers["content-length"] = String(Math.max(0, end - start + 1));
    if (range !== "none") headers["content-range"] = `bytes ${start}-${end}/${info.size}`;
    keepOpen = true;
    return {
      status: range === "none" ? 200 : 206,
      headers,
      writeBody: async (destination) => {
        try {
          if (info.size > 0) await writeFileRange(handle, start, end, destination);
        } finally {
          await handle.close();
        }
      },
      discard: () => handle.close(),
    };
  } finally {
    if (!keepOpen) await handle.close();
  }
}
