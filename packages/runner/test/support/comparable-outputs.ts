import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { digestTree } from "@svc/core";
import { EXPECTED_HASHES, NONDETERMINISTIC_FIELDS } from "../../src/outputs/repro-pack.ts";

/** JSON pointers (RFC 6901) to remove from one output file, by its path in the run folder. */
export type ExtraFields = Readonly<Record<string, readonly string[]>>;

/**
 * What differs when the reference run talked to another entitlement service (another port, so
 * another URL and audience in the config, and its own clock for consume and run_start).
 */
export const ANOTHER_SERVICE: ExtraFields = {
  "run_manifest.json": [
    "/config/entitlement_url",
    "/config/audience",
    "/entitlement/consume/consumed_at",
    "/entitlement/run_start/started_at",
  ],
  "repro_pack/environment/config.json": ["/entitlement_url", "/audience"],
};

/**
 * A finished run folder's files (the seal aside), each with exactly the fields that
 * repro_pack/manifest.json declares as varying between runs removed (NONDETERMINISTIC_FIELDS),
 * plus `extra`. Two runs that the manifest calls reproducible give equal maps; a field that varies
 * without being declared makes them differ, so a comparison also checks the declaration.
 */
export async function comparableOutputs(
  runDir: string,
  runId: string,
  extra: ExtraFields = {},
): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of (await digestTree(runDir, { exclude: (path) => path === "seal" })).entries) {
    const text = await readFile(join(runDir, entry.path), "utf8");
    files.set(entry.path, withoutVaryingFields(entry.path, text, runId, extra[entry.path] ?? []));
  }
  return files;
}

/**
 * Asserts that run `runId` in `runDir` and the reference run in `referenceDir`, which talked to
 * another entitlement service, have the same files with the same comparable content.
 */
export async function assertSameOutputsAcrossServices(runDir: string, referenceDir: string, runId: string) {
  const [a, b] = [
    await comparableOutputs(runDir, runId, ANOTHER_SERVICE),
    await comparableOutputs(referenceDir, runId, ANOTHER_SERVICE),
  ];
  assert.deepEqual([...a.keys()], [...b.keys()]);
  for (const [path, text] of a) assert.equal(text, b.get(path), path);
}

function withoutVaryingFields(path: string, text: string, runId: string, extra: readonly string[]): string {
  if (path === EXPECTED_HASHES) return ""; // hashes of the varying files, so it varies with them
  const declared = NONDETERMINISTIC_FIELDS.filter((entry) => matches(entry.file, path, runId)).flatMap(
    (entry) => entry.fields as readonly string[],
  );
  const fields = [...declared, ...extra];
  if (fields.length === 0) return text;
  if (path.endsWith(".pdf")) {
    // PDF info dictionary dates (ISO 32000-1 §14.3.3): `/CreationDate (D:YYYYMMDDHHmmSS…)`.
    return fields.reduce(
      (pdf, key) => pdf.replaceAll(new RegExp(`${key} \\(D:[^)]*\\)`, "g"), `${key} ()`),
      text,
    );
  }
  const value = JSON.parse(text) as unknown;
  for (const pointer of fields) removePointer(value, pointer);
  return JSON.stringify(value);
}

/** A declared file pattern: `*` within one name, `<run_id>` for the run's id. */
function matches(pattern: string, path: string, runId: string): boolean {
  const source = pattern
    .replaceAll("<run_id>", runId)
    .split("*")
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join("[^/]*");
  return new RegExp(`^${source}$`).test(path);
}

function removePointer(value: unknown, pointer: string): void {
  const keys = pointer
    .split("/")
    .slice(1)
    .map((key) => key.replaceAll("~1", "/").replaceAll("~0", "~"));
  let node = value;
  for (const key of keys.slice(0, -1)) {
    if (typeof node !== "object" || node === null) return;
    node = (node as Record<string, unknown>)[key];
  }
  if (typeof node === "object" && node !== null)
    delete (node as Record<string, unknown>)[keys.at(-1) as string];
}
