import { RUN_FILES } from "../run-folder/run-files.ts";
import type { SealCheck } from "./seal-check.ts";
import type { PresealPayload, SealPayload } from "./seal-payload.ts";

/**
 * The run output that states the claim strength (issue 37 item 3). Its bytes are sealed through
 * outputs_sha256; this check ties what it says to what the seal signs and draws.
 */
export const CLAIM_SUMMARY_FILE = RUN_FILES.summary;

/** Read no more of the summary than this: a runner's summary is a few kilobytes. */
export const CLAIM_SUMMARY_MAX_BYTES = 4 * 1024 * 1024;

const KEY = "claim_strength";

/**
 * Every JSON spelling of the string "claim_strength" with its quotes, as a POSIX extended regular
 * expression that JavaScript reads alike: each character literal or as its \u00XX escape (RFC 8259
 * §7, hex digits in either case). verify.sh counts its matches with `grep -oE`, svc with this
 * regular expression, so both count a key written as "claim\u005fstrength" (which JSON.parse reads
 * as the same key, the last of two winning) and neither lets a second, escaped copy hide.
 */
export const CLAIM_KEY_SPELLINGS = `"${[...KEY]
  .map((char) => {
    const hex = (char.codePointAt(0) ?? 0).toString(16).padStart(4, "0");
    const escaped = [...hex].map((digit) =>
      /[a-f]/.test(digit) ? `[${digit}${digit.toUpperCase()}]` : digit,
    );
    return `(${char}|\\\\u${escaped.join("")})`;
  })
  .join("")}"`;

/** results/summary.json as a verifier read it: its text, missing, or over its cap (not read). */
export type ClaimSummary =
  | { readonly kind: "file"; readonly text: string }
  | { readonly kind: "absent" }
  | { readonly kind: "too_large" };

/** The one line that states it, as verify.sh's sed reads it: the plain key, a colon, a plain string. */
const STATED = /"claim_strength"[ \t]*:[ \t]*"([^"\\]*)"/;

/**
 * Cross-checks `results/summary.json` with the signed claim strength (issue 37 item 3), or null
 * when the seal carries none (a runner before it: nothing to compare) or is a pre-seal. The job
 * reports both, but a reader trusts the drawn line and the summary alike: the summary must spell
 * the key exactly once in the whole file (any JSON spelling counts, so a duplicate cannot hide)
 * with the signed value as a plain string on one line, and, parsed, hold it at its top level.
 * Missing, over {@link CLAIM_SUMMARY_MAX_BYTES}, not JSON, none, two, or another value is
 * CLAIM_STRENGTH_MISMATCH. verify.sh v6 applies the same textual rules but does not parse JSON.
 */
export function checkClaimStrength(
  payload: SealPayload | PresealPayload,
  summary: ClaimSummary,
): SealCheck | null {
  if (!("claim_strength" in payload) || payload.claim_strength === undefined) return null;
  const signed = payload.claim_strength;
  if (summary.kind === "absent")
    return mismatch(`${CLAIM_SUMMARY_FILE} is missing: it cannot state the signed claim strength ${signed}`);
  if (summary.kind === "too_large")
    return mismatch(`${CLAIM_SUMMARY_FILE} is over ${CLAIM_SUMMARY_MAX_BYTES} bytes, not read`);
  const spelled = summary.text.match(new RegExp(CLAIM_KEY_SPELLINGS, "g"))?.length ?? 0;
  if (spelled !== 1)
    return mismatch(
      `${CLAIM_SUMMARY_FILE} states claim_strength ${spelled === 0 ? "nowhere" : `${spelled} times`}, the seal says ${signed} once`,
    );
  // line by line, as sed reads it
  const stated = summary.text
    .split("\n")
    .map((line) => STATED.exec(line)?.[1])
    .find((value) => value !== undefined);
  if (stated === undefined)
    return mismatch(`${CLAIM_SUMMARY_FILE} does not state claim_strength as a plain string on one line`);
  if (stated !== signed)
    return mismatch(
      `${CLAIM_SUMMARY_FILE} says claim_strength ${JSON.stringify(stated)}, the seal says ${signed}`,
    );
  let topLevel: unknown;
  try {
    const parsed = JSON.parse(summary.text) as unknown;
    topLevel =
      typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
        ? (parsed as Record<string, unknown>)[KEY]
        : undefined;
  } catch {
    return mismatch(`${CLAIM_SUMMARY_FILE} is not JSON`);
  }
  if (topLevel !== signed)
    return mismatch(
      `${CLAIM_SUMMARY_FILE} holds claim_strength below its top level, the seal says ${signed}`,
    );
  return { name: "claim_strength", ok: true, detail: `${CLAIM_SUMMARY_FILE} states the signed ${signed}` };
}

function mismatch(detail: string): SealCheck {
  return { name: "claim_strength", ok: false, detail, code: "CLAIM_STRENGTH_MISMATCH" };
}
