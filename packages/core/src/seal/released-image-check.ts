import type { SealCheck } from "./seal-check.ts";
import type { SealPayload } from "./seal-payload.ts";

/**
 * The sealed runner image against the digests the issuer lists as released (issue 23 item 5,
 * `GET /api/seal/released-runners`). The issuer signs the digest the job reported; when it also
 * publishes which runner images it released, a seal naming any other (or none) is
 * IMAGE_NOT_RELEASED. Null when the issuer publishes no list: nothing to check.
 */
export function checkReleasedImage(
  payload: Pick<SealPayload, "image">,
  released: readonly string[] | null,
  issuer: string,
): SealCheck | null {
  if (released === null) return null;
  const digest = payload.image.digest;
  if (digest !== null && released.includes(digest))
    return { name: "runner_image", ok: true, detail: `${digest} is a runner image ${issuer} released` };
  return {
    name: "runner_image",
    ok: false,
    detail:
      digest === null
        ? `the seal names no image digest, and ${issuer} lists the runner images it released`
        : `${digest} is not among the ${released.length} runner image(s) ${issuer} lists as released`,
    code: "IMAGE_NOT_RELEASED",
  };
}
