import type { Readable } from "node:stream";
import { SEAL_SVG_CAPS } from "@svc/core";
import { errorCodes } from "fastify";
import type { UploadBudget } from "./upload-budget.ts";
import { UploadClock, type UploadTimeouts } from "./upload-clock.ts";

/**
 * An uploaded `seal.svg` as the service holds it (issue 9 item 7): its size, and its bytes only
 * when core's verifier will read them. An upload over SEAL_SVG_CAPS.maxBytes is refused by core
 * from its size alone (refuseOversizeSeal), so its bytes are counted as they arrive and dropped.
 * The bytes sit alone in their own ArrayBuffer, so they can be transferred to a verification
 * worker without a copy; a class, so no parsed JSON body can pass for one.
 */
export class SvgUpload {
  readonly byteLength: number;
  #bytes: Uint8Array<ArrayBuffer> | null;

  private constructor(byteLength: number, bytes: Uint8Array<ArrayBuffer> | null) {
    this.byteLength = byteLength;
    this.#bytes = bytes;
  }

  /** An upload whose bytes are all in `bytes` (copied when they share a buffer with others). */
  static of(bytes: Uint8Array): SvgUpload {
    if (bytes.length > SEAL_SVG_CAPS.maxBytes) return new SvgUpload(bytes.length, null);
    const alone =
      bytes.buffer instanceof ArrayBuffer &&
      bytes.byteOffset === 0 &&
      bytes.byteLength === bytes.buffer.byteLength;
    return new SvgUpload(bytes.length, alone ? (bytes as Uint8Array<ArrayBuffer>) : new Uint8Array(bytes));
  }

  /** An upload of `byteLength` bytes over the verifier's cap, none of them kept. */
  static oversize(byteLength: number): SvgUpload {
    if (byteLength <= SEAL_SVG_CAPS.maxBytes) throw new RangeError(`${byteLength} bytes is within the cap`);
    return new SvgUpload(byteLength, null);
  }

  /**
   * Hands the bytes over, once (they are then transferred, and this upload no longer has them);
   * null for an upload over the cap.
   */
  take(): Uint8Array<ArrayBuffer> | null {
    const bytes = this.#bytes;
    this.#bytes = null;
    return bytes;
  }
}

/**
 * Reads a raw `image/svg+xml` body: more than `limit` bytes (announced or sent) is Fastify's own
 * 413 FST_ERR_CTP_BODY_TOO_LARGE, as its buffering parser answers; a body that ends short of its
 * Content-Length is its 400. Chunks are copied once, into one buffer sized by Content-Length,
 * and only while the upload is within the verifier's cap; past it they are only counted. Each
 * chunk is charged to `budget`; while it is in debt the stream pauses (see UploadBudget). An
 * upload slower than `timeouts` is REQUEST_TIMEOUT (408, UploadClock).
 */
export function readSvgBody(
  stream: Readable,
  contentLengthHeader: string | undefined,
  limit: number,
  budget?: UploadBudget,
  timeouts?: UploadTimeouts,
): Promise<SvgUpload> {
  const announced = contentLengthHeader === undefined ? Number.NaN : Number(contentLengthHeader);
  if (announced > limit) return Promise.reject(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
  const keep = SEAL_SVG_CAPS.maxBytes;
  return new Promise((resolve, reject) => {
    let received = 0;
    // sized by Content-Length; none at all for an upload announced over the verifier's cap
    let bytes: Uint8Array<ArrayBuffer> | null =
      announced > keep
        ? null
        : new Uint8Array(Number.isInteger(announced) && announced >= 0 ? announced : 16 * 1024);
    let wait: NodeJS.Timeout | null = null;
    const clock =
      timeouts === undefined
        ? null
        : new UploadClock(timeouts, (error) => {
            stop();
            bytes = null;
            reject(error);
          });
    const stop = () => {
      clock?.stop();
      if (wait !== null) clearTimeout(wait);
      wait = null;
      stream.removeListener("data", onData);
      stream.removeListener("end", onEnd);
      stream.removeListener("error", onError);
    };
    const onData = (chunk: Buffer | string) => {
      const data = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      const at = received;
      received += data.length;
      clock?.received();
      if (received > limit) {
        stop();
        bytes = null;
        reject(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
        return;
      }
      // in debt: read no more until it is paid (the socket then stops being read)
      const debt = budget?.charge(data.length) ?? 0;
      if (debt > 0 && wait === null) {
        stream.pause();
        clock?.hold();
        wait = setTimeout(() => {
          wait = null;
          clock?.release();
          stream.resume();
        }, debt);
      }
      if (bytes === null) return;
      if (received > keep) {
        bytes = null; // over the verifier's cap: from now on only the size matters
        return;
      }
      if (received > bytes.length) {
        const grown = new Uint8Array(Math.min(keep, Math.max(received, bytes.length * 2)));
        grown.set(bytes.subarray(0, at));
        bytes = grown;
      }
      bytes.set(data, at);
    };
    const onEnd = () => {
      stop();
      if (!Number.isNaN(announced) && received !== announced) {
        reject(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
        return;
      }
      if (bytes === null) {
        resolve(SvgUpload.oversize(received));
        return;
      }
      // a body sent without Content-Length grew in steps: its bytes move to a buffer of their own
      resolve(SvgUpload.of(received === bytes.length ? bytes : bytes.slice(0, received)));
    };
    const onError = (error: Error & { statusCode?: number }) => {
      stop();
      if (!(typeof error.statusCode === "number" && error.statusCode >= 400)) error.statusCode = 400;
      reject(error);
    };
    stream.on("data", onData);
    stream.on("end", onEnd);
    stream.on("error", onError);
    stream.resume();
  });
}
