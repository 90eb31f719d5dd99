import type { FastifyRequest } from "fastify";
import { EntitlementError } from "../errors/entitlement-error.ts";
import { SvgUpload } from "./svg-upload.ts";

/** Seal uploads are at most 1 MiB (the core parser's own limit, SVG_LIMITS.maxBytes). */
export const MAX_SVG_BYTES = 1024 * 1024;

/** Multipart limits of an upload: one file part, a few fields. */
export const MULTIPART_LIMITS = { fileSize: MAX_SVG_BYTES, files: 1, fields: 4, parts: 5 } as const;

/**
 * The uploaded `seal.svg`: a multipart part named `file` or a raw `image/svg+xml` body (read by
 * readSvgBody, app.ts). Anything else is 415; a missing part is 400; more than 1 MiB is 413 (the
 * multipart limit or the body reader's).
 */
export async function readSvgUpload(request: FastifyRequest): Promise<SvgUpload> {
  if (request.isMultipart()) {
    const part = await request.file({ limits: MULTIPART_LIMITS });
    if (part === undefined) throw new EntitlementError("REQUEST_INVALID", "field file: missing");
    if (part.fieldname !== "file") {
      part.file.resume();
      throw new EntitlementError(
        "REQUEST_INVALID",
        `field file: missing (got part ${JSON.stringify(part.fieldname.slice(0, 40))})`,
      );
    }
    return SvgUpload.of(await part.toBuffer());
  }
  if (request.body instanceof SvgUpload) return request.body;
  throw new EntitlementError(
    "UNSUPPORTED_MEDIA_TYPE",
    "send the seal as multipart/form-data (field file) or as image/svg+xml",
  );
}
