import { RUN_FILES } from "../run-folder/run-files.ts";
import type { SealCheck } from "./seal-check.ts";
import type { PresealPayload, SealPayload } from "./seal-payload.ts";

/**
 * Cross-checks what `run_manifest.json` says about the run against the signed payload (issue 23
 * item 5). Its hash is sealed, but the issuer only ever saw that hash: a caller could seal a
 * manifest naming another principal, run or project. The principal (`entitlement.principal`; a
 * pre-seal names none), `run_id`, `project_id`, `mode` and `category_id` must be the signed ones;
 * any difference, a missing field or a manifest that is not JSON is RUN_MANIFEST_MISMATCH.
 */
export function checkRunManifestFields(
  payload: SealPayload | PresealPayload,
  manifestText: string,
): SealCheck {
  let manifest: Record<string, unknown>;
  try {
    const parsed = JSON.parse(manifestText) as unknown;
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
      throw new Error("not an object");
    manifest = parsed as Record<string, unknown>;
  } catch {
    return mismatch(
      `${RUN_FILES.manifest} is not a JSON object: its run cannot be cross-checked with the seal`,
    );
  }
  const entitlement = (manifest.entitlement ?? {}) as Record<string, unknown>;
  const pairs: [string, unknown, string][] = [
    ["run_id", manifest.run_id, payload.run_id],
    ["project_id", manifest.project_id, payload.project_id],
    ["mode", manifest.mode, payload.mode],
    ["category_id", manifest.category_id, payload.category_id],
  ];
  if ("principal" in payload)
    pairs.unshift(["entitlement.principal", entitlement.principal, payload.principal]);
  const differences = pairs
    .filter(([, stated, signed]) => stated !== signed)
    .map(([field, stated, signed]) =>
      stated === undefined
        ? `${field} is missing (the seal says ${signed})`
        : `${field} is ${JSON.stringify(stated)}, the seal says ${signed}`,
    );
  if (differences.length > 0) return mismatch(`${RUN_FILES.manifest}: ${differences.join("; ")}`);
  return {
    name: "run_manifest_fields",
    ok: true,
    detail: `principal, run, project, mode and category are the signed ones`,
  };
}

function mismatch(detail: string): SealCheck {
  return { name: "run_manifest_fields", ok: false, detail, code: "RUN_MANIFEST_MISMATCH" };
}
