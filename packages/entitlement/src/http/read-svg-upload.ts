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
 * multipart limit or the body reader's). A multipart file is charged to `budget` as it is read,
 * as readSvgBody charges a raw body, and bounded in time by `timeouts` from the start of the
 * body to its last byte (408, UploadClock).
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
      const part = await Promise.race([request.file({ limits: MULTIPART_LIMITS }), expired]);
      if (part === undefined) throw new EntitlementError("REQUEST_INVALID", "field file: missing");
      if (part.fieldname !== "file") {
        part.file.resume();
        throw new EntitlementError(
          "REQUEST_INVALID",
          `field file: missing (got part ${JSON.stringify(part.fieldname.slice(0, 40))})`,
        );
      }
      stream = part.file;
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of part.file as AsyncIterable<Buffer>) {
        clock.received();
        chunks.push(chunk);
        size += chunk.length;
        // not reading on stops busboy, and the request stream behind it, by backpressure
        const debt = budget.charge(chunk.length);
        if (debt > 0) {
          clock.hold();
          await new Promise((resolve) => setTimeout(resolve, debt));
          clock.release();
        }
      }
      // busboy stops at the file size limit and marks the part: @fastify/multipart's own 413
      if (part.file.truncated) throw new request.server.multipartErrors.RequestFileTooLargeError();
      return SvgUpload.of(Buffer.concat(chunks, size));
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
