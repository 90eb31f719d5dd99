import { sha256Hex } from "../digest.ts";
import { exportPublicKeyPem, importPublicKeyPem, keyIdOf } from "../keys.ts";
import { RUN_FILES } from "../run-folder/run-files.ts";
import type { SealedRunHashes } from "../run-hashes.ts";
import type { SealPayload } from "./seal-payload.ts";
import { verifyInstructions } from "./verify-instructions.ts";
import { isReleasedVerifyScript, VERIFY_SCRIPT_PATH } from "./verify-script.ts";
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
    ? { name: "run_manifest", ok: true, detail: `${RUN_FILES.manifest} is the sealed one` }
    : {
        name: "run_manifest",
        ok: false,
        detail:
          actual.run_manifest_sha256 === null
            ? `${RUN_FILES.manifest} is missing`
            : `${RUN_FILES.manifest} hashes to ${actual.run_manifest_sha256}, the seal says ${seal.run_manifest_sha256}`,
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

/** The bytes of `seal/` files besides seal.svg/json/sig, as read from a run folder (null: missing). */
export interface SealCompanionFiles {
  readonly verifyMd: Uint8Array | null;
  readonly publicKeyPem: Uint8Array | null;
}

/**
 * Checks the files the runner writes beside the signed ones (issue 23 item 2): both are
 * reproducible from the signed payload, so they are compared byte for byte. `VERIFY.md` must be
 * the issuer's text for this payload (a rewritten one can claim anything, "the science is right",
 * another key id); `public_key.pem` must be the signing key (`key_id`) in the issuer's PEM form
 * (a swapped key tells a reader to trust someone else).
 */
export function checkSealCompanions(payload: SealPayload, files: SealCompanionFiles): SealCheck[] {
  const problems: string[] = [];
  if (files.verifyMd === null) problems.push("VERIFY.md is missing");
  else if (!Buffer.from(files.verifyMd).equals(Buffer.from(verifyInstructions(payload), "utf8")))
    problems.push("VERIFY.md is not the issuer's text for this seal");
  if (files.publicKeyPem === null) problems.push("public_key.pem is missing");
  else if (!isPemOfKey(files.publicKeyPem, payload.key_id))
    problems.push(`public_key.pem is not the signing key ${payload.key_id} as the issuer writes it`);
  if (problems.length === 0)
    return [{ name: "seal_files", ok: true, detail: "VERIFY.md and public_key.pem are the issuer's" }];
  return [{ name: "seal_files", ok: false, detail: problems.join("; "), code: "SEAL_FILES_DISAGREE" }];
}

function isPemOfKey(pem: Uint8Array, keyId: string): boolean {
  const text = Buffer.from(pem).toString("utf8");
  try {
    const key = importPublicKeyPem(text);
    return exportPublicKeyPem(key) === text && keyIdOf(key) === keyId;
  } catch {
    return false;
  }
}

/**
 * Requires the folder's verify.sh to be one a runner release wrote (issue 23 item 3): the copy
 * in the folder is what a reader may run, and one added line can make it print the sealed hashes.
 */
export function checkVerifyScript(script: Uint8Array | null): SealCheck {
  if (script === null)
    return {
      name: "verify_script",
      ok: false,
      detail: `${VERIFY_SCRIPT_PATH} is missing`,
      code: "VERIFY_SCRIPT_NOT_RELEASED",
    };
  if (isReleasedVerifyScript(script))
    return { name: "verify_script", ok: true, detail: `${VERIFY_SCRIPT_PATH} is a released verify.sh` };
  return {
    name: "verify_script",
    ok: false,
    detail: `${VERIFY_SCRIPT_PATH} (sha256 ${sha256Hex(script)}) is not a verify.sh the runner released; run \`svc repro verify-script\`'s copy, never the folder's`,
    code: "VERIFY_SCRIPT_NOT_RELEASED",
  };
}

/** Fails naming every uncovered path (core `listUncoveredPaths`); passes when there is none. */
export function checkRunCoverage(uncovered: readonly string[]): SealCheck {
  if (uncovered.length === 0)
    return { name: "run_coverage", ok: true, detail: "the seal covers everything in the run folder" };
  const shown = uncovered.slice(0, MAX_NAMED).join(", ");
  const more = uncovered.length > MAX_NAMED ? ` and ${uncovered.length - MAX_NAMED} more` : "";
  return {
    name: "run_coverage",
    ok: false,
    detail: `not covered by the seal: ${shown}${more}`,
    code: "RUN_FOLDER_UNCOVERED",
  };
}
