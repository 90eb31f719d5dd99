import { join } from "node:path";
import { sha256File, walkTree } from "@svc/core";
import { formatJson, writeFileAtomic, writeJsonAtomic } from "./atomic-write.ts";
import { isScratchPath } from "./scratch.ts";

export const EXPECTED_HASHES = "repro_pack/outputs/expected_output_hashes.json";

/** Fields that legitimately differ between two runs of the same inputs, image and run id. */
export const NONDETERMINISTIC_FIELDS = [
  // A rerun of an interrupted run replays check/consume: runs_remaining and already_consumed differ.
  {
    file: "run_manifest.json",
    fields: ["/started_at", "/outputs_completed_at", "/metering", "/entitlement/check"],
  },
  { file: "results/summary.json", fields: ["/generated_at"] },
  { file: "results/metrics.json", fields: ["/generated_at"] },
  { file: "results/combined_unified_computational_outputs.json", fields: ["/generated_at"] },
  { file: "raw/*_raw.json", fields: ["/generated_at"] },
  { file: "plans/<run_id>_module_plan.json", fields: ["/generated_at"] },
  { file: "repro_pack/manifest.json", fields: ["/generated_at"] },
  { file: "results/report.pdf", fields: ["/CreationDate", "/ModDate"] },
  { file: EXPECTED_HASHES, fields: ["hashes of the files above"] },
] as const;

export interface ReproPackInfo {
  readonly runId: string;
  readonly projectId: string;
  readonly mode: string;
  readonly moduleId: string;
  readonly categoryPreset: string;
  readonly image: { readonly reference: string; readonly digest: string | null };
  readonly generatedAt: string;
  readonly inputsSha256: string;
  readonly runtime: Record<string, string>;
  readonly config: Record<string, unknown>;
  readonly inputEntries: readonly { path: string; sha256: string; size: number }[];
}

/** Writes repro_pack/ except the expected hashes (those come last, see writeExpectedHashes). */
export async function writeReproPack(runDir: string, info: ReproPackInfo): Promise<void> {
  const dir = join(runDir, "repro_pack");
  const imageRef = info.image.digest
    ? `${info.image.reference.split("@")[0]}@${info.image.digest}`
    : info.image.reference;
  const rerunArgs = ["--project-id", info.projectId, "--mode", info.mode, "--module", info.moduleId];
  const args = [...rerunArgs, "--category-preset", info.categoryPreset, "--run-id", info.runId];
  await writeJsonAtomic(join(dir, "manifest.json"), {
    schema: "svc.repro-pack/v1",
    run_id: info.runId,
    project_id: info.projectId,
    generated_at: info.generatedAt,
    image: info.image,
    inputs_sha256: info.inputsSha256,
    command: ["svc-runner", ...args],
    determinism:
      "same inputs, image and run id give byte-identical outputs except the fields listed in nondeterministic_fields",
    nondeterministic_fields: NONDETERMINISTIC_FIELDS,
    expected_output_hashes: EXPECTED_HASHES,
    hash_coverage: `every file of the run folder except seal/ and ${EXPECTED_HASHES}`,
  });
  await writeJsonAtomic(join(dir, "environment", "runtime.json"), info.runtime);
  await writeJsonAtomic(join(dir, "environment", "config.json"), info.config);
  await writeJsonAtomic(join(dir, "environment", "inputs.json"), {
    inputs_sha256: info.inputsSha256,
    files: info.inputEntries,
  });
  await writeFileAtomic(
    join(dir, "container", "Dockerfile"),
    `# Re-runs this audit with the exact runner image it used.\nFROM ${imageRef}\nENTRYPOINT ["node", "packages/runner/bin/svc-runner.ts"]\n`,
  );
  await writeFileAtomic(
    join(dir, "container", "build.sh"),
    `#!/usr/bin/env bash\n# Builds a local image pinned to the runner image of this run.\nset -euo pipefail\ncd "$(dirname "\${BASH_SOURCE[0]}")"\ndocker build -t svc-runner-repro:${info.runId.toLowerCase()} .\n`,
    0o755,
  );
  await writeFileAtomic(
    join(dir, "container", "run.sh"),
    `#!/usr/bin/env bash
# Re-runs the audit on the same staged inputs. Usage: run.sh <input-root> <output-root>
# Needs an entitlement (SVC_ENTITLEMENT_URL and an identity) and a NEW run id (SVC_RUN_ID):
# a finished run id is never reused.
set -euo pipefail
input_root="\${1:?input root}"; output_root="\${2:?output root}"
docker run --rm -v "$input_root:/data/input:ro" -v "$output_root:/data/output" \\
  -e SVC_ENTITLEMENT_URL -e SVC_ENTITLEMENT_AUTH_MODE -e SVC_ENTITLEMENT_AUDIENCE -e SVC_RUN_ID \\
  svc-runner-repro:${info.runId.toLowerCase()} ${rerunArgs.join(" ")} --category-preset ${info.categoryPreset}
`,
    0o755,
  );
  await writeFileAtomic(join(dir, "container", "verify.sh"), VERIFY_SH, 0o755);
}

/**
 * repro_pack/container/verify.sh (issue 9 §3): the truth is the signed seal. It verifies the
 * Ed25519 signature of seal/seal.json with OpenSSL against a public key given from outside the
 * folder, then recomputes outputs_sha256 (svc-tree/v1, seal/ and .scratch/ excluded) and run_manifest_sha256
 * and compares them with the signed values. expected_output_hashes.json only names the files
 * that differ; rewriting it changes nothing.
 */
const VERIFY_SH = `#!/usr/bin/env bash
# Checks this run folder against its seal. Needs bash, openssl (3.x), base64, sha256sum, find,
# sort, sed, xargs.
# Usage: verify.sh --key <issuer-public-key.pem> [run-dir]   (default run-dir: the folder this script sits in)
# The key must come from the issuer (e.g. GET <entitlement-url>/api/seal/keys), never from this
# folder: a folder can carry a key that vouches for a fabricated seal.
# Exit: 0 the outputs are the sealed ones; 1 they are not (or the signature fails);
#       2 usage; 4 a pre-seal (nothing signed yet, outputs compared with the unsigned pre-seal).
set -euo pipefail
key=""
if [ "\${1:-}" = "--key" ]; then key="\${2:-}"; shift 2 || true; fi
here="$(cd "$(dirname "\${BASH_SOURCE[0]}")" && pwd)"
run_dir="$(cd "\${1:-$here/../..}" && pwd)"
seal_dir="$run_dir/seal"
expected="$run_dir/${EXPECTED_HASHES}"
field() { sed -n "s/.*\\"$1\\": *\\"\\([0-9a-f]\\{64\\}\\)\\".*/\\1/p" "$2" | head -n 1; }
compute_outputs() {
  (cd "$run_dir" && find . -type f ! -path './seal/*' ! -path './.scratch/*' ! -path './.scratch-*' -print0 | LC_ALL=C sort -z | xargs -0 -r sha256sum |
    sed 's|  \\./|  |')
}
name_differences() {
  [ -f "$expected" ] || { echo "verify: no per-file list to name the files that differ" >&2; return; }
  local want got
  want="$(mktemp)"; got="$(mktemp)"
  sed -n 's/^ *{"path": "\\([^"]*\\)", "sha256": "\\([0-9a-f]\\{64\\}\\)"}.*$/\\2  \\1/p' "$expected" | LC_ALL=C sort -k 2 > "$want"
  compute_outputs | grep -v '  ${EXPECTED_HASHES}$' | LC_ALL=C sort -k 2 > "$got" || true
  if diff -u "$want" "$got" >&2; then
    echo "verify: every file matches ${EXPECTED_HASHES}, so that list was rewritten after sealing too" >&2
  else
    echo "verify: files that differ from ${EXPECTED_HASHES} (diff above: - listed, + found)" >&2
  fi
  rm -f "$want" "$got"
}
compare() { # $1 = file holding the sealed hashes
  local want_outputs want_manifest got_outputs got_manifest
  want_outputs="$(field outputs_sha256 "$1")"; want_manifest="$(field run_manifest_sha256 "$1")"
  if [ -z "$want_outputs" ] || [ -z "$want_manifest" ]; then
    echo "verify: FAILED, $1 holds no sealed hashes" >&2; exit 1
  fi
  if [ -n "$(cd "$run_dir" && find . ! -type f ! -type d ! -path './seal/*' ! -path './.scratch/*' ! -path './.scratch-*' -print -quit)" ]; then
    echo "verify: FAILED, the run folder holds a symbolic link or special file (svc-tree/v1 refuses them)" >&2; exit 1
  fi
  got_outputs="$(compute_outputs | sha256sum | cut -d ' ' -f 1)"
  got_manifest="$( (sha256sum "$run_dir/run_manifest.json" 2>/dev/null || echo missing) | cut -d ' ' -f 1)"
  local failed=0
  if [ "$got_manifest" != "$want_manifest" ]; then
    echo "verify: FAILED, run_manifest.json hashes to $got_manifest, sealed $want_manifest" >&2; failed=1
  fi
  if [ "$got_outputs" != "$want_outputs" ]; then
    echo "verify: FAILED, the outputs hash to $got_outputs, sealed $want_outputs" >&2; name_differences; failed=1
  fi
  [ "$failed" = 0 ] || exit 1
}
if [ ! -f "$seal_dir/seal.json" ] && [ -f "$seal_dir/preseal.json" ]; then
  compare "$seal_dir/preseal.json"
  echo "verify: PENDING, the outputs match the unsigned pre-seal; run svc-runner seal to get the seal"
  exit 4
fi
[ -n "$key" ] || {
  echo "verify: pass --key <issuer public key.pem> from the issuer (GET /api/seal/keys); seal/public_key.pem in this folder cannot vouch for itself" >&2
  exit 2
}
[ -f "$key" ] || { echo "verify: $key not found" >&2; exit 2; }
command -v openssl > /dev/null || { echo "verify: needs openssl 3 (Ed25519 with pkeyutl -rawin) on PATH" >&2; exit 2; }
if [ ! -f "$seal_dir/seal.json" ] || [ ! -f "$seal_dir/seal.sig" ]; then
  echo "verify: FAILED, seal/seal.json or seal/seal.sig missing" >&2; exit 1
fi
sig="$(mktemp)"
trap 'rm -f "$sig"' EXIT
base64 -d "$seal_dir/seal.sig" > "$sig" 2>/dev/null || { echo "verify: FAILED, seal/seal.sig is not base64" >&2; exit 1; }
if ! openssl pkeyutl -verify -pubin -inkey "$key" -rawin -in "$seal_dir/seal.json" -sigfile "$sig" > /dev/null 2>&1; then
  echo "verify: FAILED, the signature of seal/seal.json does not verify with $key" >&2
  exit 1
fi
compare "$seal_dir/seal.json"
echo "verify: OK, seal/seal.json is signed by $key and the outputs and run_manifest.json are the sealed ones"
`;

/** Lists every output file (seal/ and the hash file itself excluded) with its SHA-256. */
export async function writeExpectedHashes(runDir: string): Promise<void> {
  // core's walker: the project's one symlink policy (refuse), UTF-8 byte order (issue 15 item 4).
  const { files: paths } = await walkTree(runDir, {
    exclude: (path) => path === "seal" || path === EXPECTED_HASHES || isScratchPath(path),
  });
  const lines: string[] = [];
  for (const path of paths) {
    const { sha256 } = await sha256File(join(runDir, path));
    lines.push(`    {"path": ${JSON.stringify(path)}, "sha256": "${sha256}"}`);
  }
  // One entry per line so verify.sh can read it with sed alone (no jq in minimal images).
  const text = `{\n  "schema": "svc.expected-output-hashes/v1",\n  "algorithm": "sha256",\n  "files": [\n${lines.join(",\n")}\n  ]\n}\n`;
  JSON.parse(text);
  await writeFileAtomic(join(runDir, EXPECTED_HASHES), text);
}

export { formatJson };
