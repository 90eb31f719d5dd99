import type { Readable } from "node:stream";
import type { FastifyRequest } from "fastify";
import { EntitlementError } from "../errors/entitlement-error.ts";
import { SvgUpload } from "./svg-upload.ts";
import type { UploadBudget } from "./upload-budget.ts";
import { UploadClock, type UploadTimeouts } from "./upload-clock.ts";

/** Seal uploads are at most 1 MiB (the core parser's own limit, SVG_LIMITS.maxBytes). */
export const MAX_SVG_BYTES = 1024 * 1024;

/** Multipart limits of an upload: one file part, a few fields. */
export const MULTIPART_LIMITS = { fileSize: MAX_SVG_BYTES, files: 1, fields: 4, parts: 5 } as const;

/**
 * The uploaded `seal.svg`: a multipart part named `file` or a raw `image/svg+xml` body (read by
 * readSvgBody, app.ts). Anything else is 415; a missing part is 400; more than 1 MiB is 413 (the
 * multipart limit or the body reader's), and so is a second file (MULTIPART_LIMIT). A multipart
 * file is charged to `budget` as it is read, as readSvgBody charges a raw body, and the whole
 * multipart body is bounded in time by `timeouts` from its start to its last byte (408, UploadClock).
 */
export async function readSvgUpload(
  request: FastifyRequest,
  budget: UploadBudget,
  timeouts: UploadTimeouts,
): Promise<SvgUpload> {
  if (request.isMultipart()) {
    // the clock starts before the first part: a client may stall in the part headers too
    let stream: Readable | null = null;
    const { promise: expired, reject: expire } = Promise.withResolvers<never>();
    expired.catch(() => {});
    const clock = new UploadClock(timeouts, (error) => {
      // a stall inside the file ends the part's stream with the 408, which the read loop throws
      stream?.destroy(error);
      expire(error);
    });
    try {
      // Every part is read, not just the first file: a second file is the documented 413
      // MULTIPART_LIMIT (busboy's files limit, raised as it reaches that part), never an upload
      // whose first file is verified while the second one goes unread (issue 23 item 10).
      const parts = request.parts({ limits: MULTIPART_LIMITS })[Symbol.asyncIterator]();
      let upload: SvgUpload | null = null;
      for (;;) {
        const next = await Promise.race([parts.next(), expired]);
        if (next.done) break;
        const part = next.value;
        if (part.type !== "file") continue;
        if (part.fieldname !== "file") {
          part.file.resume();
          throw new EntitlementError(
            "REQUEST_INVALID",
            `field file: missing (got part ${JSON.stringify(part.fieldname.slice(0, 40))})`,
          );
        }
        stream = part.file;
        upload = await readFilePart(request, part.file, budget, clock);
      }
      if (upload === null) throw new EntitlementError("REQUEST_INVALID", "field file: missing");
      return upload;
    } finally {
      clock.stop();
    }
  }
  if (request.body instanceof SvgUpload) return request.body;
  throw new EntitlementError(
    "UNSUPPORTED_MEDIA_TYPE",
    "send the seal as multipart/form-data (field file) or as image/svg+xml",
  );
}

async function readFilePart(
  request: FastifyRequest,
  file: AsyncIterable<Buffer> & { truncated: boolean },
  budget: UploadBudget,
  clock: UploadClock,
): Promise<SvgUpload> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of file) {
    clock.received();
    chunks.push(chunk);
    size += chunk.length;
    // not reading on stops busboy, and the request stream behind it, by backpressure
    const debt = budget.charge(chunk.length);
    if (debt > 0) {
      // time the service itself holds the upload back is not the client's idleness
      clock.hold();
      await new Promise((resolve) => setTimeout(resolve, debt));
      clock.release();
    }
  }
  // busboy stops at the file size limit and marks the part: @fastify/multipart's own 413
  if (file.truncated) throw new request.server.multipartErrors.RequestFileTooLargeError();
  return SvgUpload.of(Buffer.concat(chunks, size));
}
