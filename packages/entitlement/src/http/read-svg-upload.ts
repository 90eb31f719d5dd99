import type { IncomingMessage } from "node:http";
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
 * The whole multipart body's bound (issue 38 item 4): the 1 MiB file, its part headers, the
 * boundaries and a few short fields. Every byte of the body counts — preamble, epilogue, text
 * fields, the file — so a 64 MiB preamble or 8 MiB of fields is refused (413) like a file over
 * the limit, instead of being read whole around it.
 */
export const MAX_MULTIPART_BYTES = MAX_SVG_BYTES + 16 * 1024;

/**
 * The uploaded `seal.svg`: a multipart part named `file` or a raw `image/svg+xml` body (read by
 * readSvgBody, app.ts). Anything else is 415; a missing part is 400; more than 1 MiB is 413 (the
 * multipart limit or the body reader's), and so is a second file (MULTIPART_LIMIT). Every byte of
 * a multipart body, not only its file part, is charged to `budget` as it is read, as readSvgBody
 * charges a raw body, and counted against MAX_MULTIPART_BYTES (413); the whole body is bounded in
 * time by `timeouts` from its start to its last byte (408, UploadClock).
 */
export async function readSvgUpload(
  request: FastifyRequest,
  budget: UploadBudget,
  timeouts: UploadTimeouts,
): Promise<SvgUpload> {
  if (request.isMultipart()) {
    // the clock starts before the first part: a client may stall in the part headers too
    let stream: Readable | null = null;
    const { promise: refused, reject: refuse } = Promise.withResolvers<never>();
    refused.catch(() => {});
    const stop = (error: EntitlementError) => {
      // a stall or an overflow inside the file ends the part's stream with the error, which the
      // read loop throws
      stream?.destroy(error);
      refuse(error);
    };
    const clock = new UploadClock(timeouts, stop);
    // Every part is read, not just the first file: a second file is the documented 413
    // MULTIPART_LIMIT (busboy's files limit, raised as it reaches that part), never an upload
    // whose first file is verified while the second one goes unread (issue 23 item 10).
    const parts = request.parts({ limits: MULTIPART_LIMITS })[Symbol.asyncIterator]();
    // the first next() pipes the request into busboy; the meter listens in the same tick, before
    // any byte flows
    let next = parts.next();
    const unmeter = meterBody(request.raw, budget, clock, MAX_MULTIPART_BYTES, stop);
    try {
      let upload: SvgUpload | null = null;
      for (;;) {
        const result = await Promise.race([next, refused]);
        if (result.done) break;
        const part = result.value;
        if (part.type === "file") {
          if (part.fieldname !== "file") {
            part.file.resume();
            throw new EntitlementError(
              "REQUEST_INVALID",
              `field file: missing (got part ${JSON.stringify(part.fieldname.slice(0, 40))})`,
            );
          }
          stream = part.file;
          upload = await Promise.race([readFilePart(request, part.file), refused]);
        }
        next = parts.next();
        // a refusal may win the race while busboy still fails this part: that is no crash
        next.catch(() => {});
      }
      if (upload === null) throw new EntitlementError("REQUEST_INVALID", "field file: missing");
      return upload;
    } finally {
      unmeter();
      clock.stop();
    }
  }
  if (request.body instanceof SvgUpload) return request.body;
  throw new EntitlementError(
    "UNSUPPORTED_MEDIA_TYPE",
    "send the seal as multipart/form-data (field file) or as image/svg+xml",
  );
}

/**
 * Charges every chunk of `body` to `budget` and `clock` as it arrives and counts it against
 * `limit`; over it, `refuse` gets a 413 PAYLOAD_TOO_LARGE and the meter stops. While the budget
 * is in debt the request is paused, so the socket stops being read (UploadBudget); busboy's
 * drain resumes a piped request, so a resume during the wait pauses it again. Returns the stop.
 */
function meterBody(
  body: IncomingMessage,
  budget: UploadBudget,
  clock: UploadClock,
  limit: number,
  refuse: (error: EntitlementError) => void,
): () => void {
  let seen = 0;
  let wait: NodeJS.Timeout | null = null;
  const onData = (chunk: Buffer) => {
    clock.received();
    seen += chunk.length;
    if (seen > limit) {
      stop();
      refuse(new EntitlementError("PAYLOAD_TOO_LARGE", `the multipart body exceeds ${limit} bytes`));
      return;
    }
    const debt = budget.charge(chunk.length);
    if (debt > 0 && wait === null) {
      // time the service itself holds the upload back is not the client's idleness
      body.pause();
      clock.hold();
      wait = setTimeout(() => {
        wait = null;
        clock.release();
        body.resume();
      }, debt);
    }
  };
  const onResume = () => {
    if (wait !== null) body.pause();
  };
  const stop = () => {
    body.off("data", onData);
    body.off("resume", onResume);
    if (wait !== null) clearTimeout(wait);
    wait = null;
  };
  body.on("data", onData);
  body.on("resume", onResume);
  return stop;
}

async function readFilePart(
  request: FastifyRequest,
  file: AsyncIterable<Buffer> & { truncated: boolean },
): Promise<SvgUpload> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of file) {
    chunks.push(chunk);
    size += chunk.length;
  }
  // busboy stops at the file size limit and marks the part: @fastify/multipart's own 413
  if (file.truncated) throw new request.server.multipartErrors.RequestFileTooLargeError();
  return SvgUpload.of(Buffer.concat(chunks, size));
}
