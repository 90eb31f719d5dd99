import type { FastifyRequest } from "fastify";
import { EntitlementError } from "../errors/entitlement-error.ts";
import { SvgUpload } from "./svg-upload.ts";
import type { UploadBudget } from "./upload-budget.ts";

/** Seal uploads are at most 1 MiB (the core parser's own limit, SVG_LIMITS.maxBytes). */
export const MAX_SVG_BYTES = 1024 * 1024;

/** Multipart limits of an upload: one file part, a few fields. */
export const MULTIPART_LIMITS = { fileSize: MAX_SVG_BYTES, files: 1, fields: 4, parts: 5 } as const;

/**
 * The uploaded `seal.svg`: a multipart part named `file` or a raw `image/svg+xml` body (read by
 * readSvgBody, app.ts). Anything else is 415; a missing part is 400; more than 1 MiB is 413 (the
 * multipart limit or the body reader's), and so is a second file (MULTIPART_LIMIT). A multipart file is charged to `budget` as it is read,
 * as readSvgBody charges a raw body.
 */
export async function readSvgUpload(request: FastifyRequest, budget: UploadBudget): Promise<SvgUpload> {
  if (request.isMultipart()) {
    // Every part is read, not just the first file: a second file is the documented 413
    // MULTIPART_LIMIT (busboy's files limit, raised as it reaches that part), never an upload
    // whose first file is verified while the second one goes unread (issue 23 item 10).
    let upload: SvgUpload | null = null;
    for await (const part of request.parts({ limits: MULTIPART_LIMITS })) {
      if (part.type !== "file") continue;
      if (part.fieldname !== "file") {
        part.file.resume();
        throw new EntitlementError(
          "REQUEST_INVALID",
          `field file: missing (got part ${JSON.stringify(part.fieldname.slice(0, 40))})`,
        );
      }
      upload = await readFilePart(request, part.file, budget);
    }
    if (upload === null) throw new EntitlementError("REQUEST_INVALID", "field file: missing");
    return upload;
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
): Promise<SvgUpload> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of file) {
    chunks.push(chunk);
    size += chunk.length;
    // not reading on stops busboy, and the request stream behind it, by backpressure
    const debt = budget.charge(chunk.length);
    if (debt > 0) await new Promise((resolve) => setTimeout(resolve, debt));
  }
  // busboy stops at the file size limit and marks the part: @fastify/multipart's own 413
  if (file.truncated) throw new request.server.multipartErrors.RequestFileTooLargeError();
  return SvgUpload.of(Buffer.concat(chunks, size));
}
