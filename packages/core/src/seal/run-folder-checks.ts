import type { SealedRunHashes } from "../run-hashes.ts";
import type { SealPayload } from "./seal-payload.ts";
import type { SealCheck } from "./verify-seal-svg.ts";

/** A per-file list such as `repro_pack/outputs/expected_output_hashes.json`: used only to name files. */
export interface ExpectedFileHashes {
  readonly path: string;
  /** Where the list came from, for messages. */
  readonly files: readonly { readonly path: string; readonly sha256: string }[];
}

const MAX_NAMED = 20;

/**
 * Checks a run folder against its seal (issue 9 §3): the recomputed `run_manifest_sha256` and
 * `outputs_sha256` must be the signed ones. The sealed hashes are the only source of truth; a
 * per-file list from the folder, when there is one, only helps name the files that differ.
 */
export function checkRunHashes(
  seal: Pick<SealPayload, "outputs_sha256" | "run_manifest_sha256">,
  actual: SealedRunHashes,
  expected: ExpectedFileHashes | null,
): SealCheck[] {
  const manifestOk = actual.run_manifest_sha256 === seal.run_manifest_sha256;
  const manifest: SealCheck = manifestOk
    ? { name: "run_manifest", ok: true, detail: "run_manifest.json is the sealed one" }
    : {
        name: "run_manifest",
        ok: false,
        detail:
          actual.run_manifest_sha256 === null
            ? "run_manifest.json is missing"
            : `run_manifest.json hashes to ${actual.run_manifest_sha256}, the seal says ${seal.run_manifest_sha256}`,
        code: "RUN_MANIFEST_CHANGED",
      };
  if (actual.outputs_sha256 === seal.outputs_sha256) {
    return [
      manifest,
      {
        name: "run_outputs",
        ok: true,
        detail: `${actual.outputs.entries.length} files match outputs_sha256`,
      },
    ];
  }
  return [
    manifest,
    {
      name: "run_outputs",
      ok: false,
      detail: `outputs hash to ${actual.outputs_sha256}, the seal says ${seal.outputs_sha256}; ${nameDifferences(actual, expected)}`,
      code: "RUN_OUTPUTS_CHANGED",
    },
  ];
}

function nameDifferences(actual: SealedRunHashes, expected: ExpectedFileHashes | null): string {
  if (expected === null) return "no per-file list in the folder to name the files that differ";
  const listed = new Map(expected.files.map((file) => [file.path, file.sha256]));
  const found = new Map(
    actual.outputs.entries
      .filter((entry) => entry.path !== expected.path)
      .map((entry) => [entry.path, entry.sha256]),
  );
  const differences: string[] = [];
  for (const [path, sha256] of listed) {
    const now = found.get(path);
    if (now === undefined) differences.push(`deleted ${path}`);
    else if (now !== sha256) differences.push(`changed ${path}`);
  }
  for (const path of found.keys()) if (!listed.has(path)) differences.push(`added ${path}`);
  if (differences.length === 0) {
    return `every file matches ${expected.path}, so that list was rewritten after sealing too`;
  }
  const shown = differences.slice(0, MAX_NAMED).join(", ");
  const more = differences.length > MAX_NAMED ? ` and ${differences.length - MAX_NAMED} more` : "";
  return `against ${expected.path}: ${shown}${more}`;
}
