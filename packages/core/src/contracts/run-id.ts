import { createHash } from "node:crypto";
import { z } from "zod";

// docs/contracts/run-id.md: one grammar for run ids and project ids, used by the runner, the
// entitlement service, preflight and the seal. Label-safe (the characters and the alphanumeric
// ends of a Kubernetes label value, RFC 1123-like) because preflight puts run ids in Job labels
// and folder names; 128 characters because the output folder and the ledger take that much.

/** Most characters a run id or project id may have. */
export const MAX_ID_LENGTH = 128;

/** `[A-Za-z0-9._-]`, alphanumeric at both ends, 1–128 characters. */
export const ID_PATTERN = /^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,126}[A-Za-z0-9])?$/;

/** The one message every package gives for an id outside the grammar (prefixed by the field). */
export const ID_RULE = "must be 1-128 characters of [A-Za-z0-9._-], alphanumeric at both ends";

/** A run id (docs/contracts/run-id.md). */
export const runIdSchema = z.string().regex(ID_PATTERN, ID_RULE);

/** A project id: the input folder name under the input root (docs/contracts/run-id.md). */
export const projectIdSchema = z.string().regex(ID_PATTERN, ID_RULE);

/** True when `value` is a run id or project id by the grammar. */
export function isSafeId(value: string): boolean {
  return ID_PATTERN.test(value);
}

/** The message for a field whose value breaks the grammar, the same in every package. */
export function describeIdProblem(field: string, value: string): string | null {
  return isSafeId(value) ? null : `${field} ${ID_RULE}`;
}

/** The default run id `run_<UTC yyyymmddThhmmssZ>` (spec §2.1, docs/contracts/runner-env.md). */
export function defaultRunId(now: Date): string {
  const iso = now.toISOString();
  return `run_${iso.slice(0, 10).replaceAll("-", "")}T${iso.slice(11, 19).replaceAll(":", "")}Z`;
}

/** Kubernetes label values hold at most 63 characters (Kubernetes "Labels and Selectors"). */
const MAX_LABEL_VALUE = 63;

/**
 * The label-safe form of a run id or project id: the id itself when it fits a label value (63 characters),
 * else `h-` + 60 hex digits of its SHA-256. The full id travels in an annotation; whoever selects
 * by this label confirms the annotation, so a crafted id equal to another's hash form matches nothing.
 */
export function idLabelValue(id: string): string {
  if (id.length <= MAX_LABEL_VALUE) return id;
  return `h-${createHash("sha256")
    .update(id)
    .digest("hex")
    .slice(0, MAX_LABEL_VALUE - 3)}`;
}
