import { join } from "node:path";
import {
  RUN_FILES,
  runPath,
  SEAL_DIR,
  sha256File,
  VERIFY_SCRIPT,
  VERIFY_SCRIPT_PATH,
  walkTree,
} from "@svc/core";
import { formatJson, writeFileAtomic, writeJsonAtomic } from "./atomic-write.ts";
import { isScratchPath } from "./scratch.ts";

export const EXPECTED_HASHES = RUN_FILES.expectedHashes;

/** Fields that legitimately differ between two runs of the same inputs, image and run id. */
export const NONDETERMINISTIC_FIELDS = [
  // A rerun of an interrupted run replays check/consume: runs_remaining and already_consumed differ.
  {
    file: RUN_FILES.manifest,
    fields: ["/started_at", "/outputs_completed_at", "/metering", "/entitlement/check"],
  },
  { file: RUN_FILES.summary, fields: ["/generated_at"] },
  { file: RUN_FILES.metrics, fields: ["/generated_at"] },
  { file: RUN_FILES.combined, fields: ["/generated_at"] },
  { file: runPath("moduleRaw", { module: "*" }), fields: ["/generated_at"] },
  { file: RUN_FILES.modulePlan, fields: ["/generated_at"] },
  { file: RUN_FILES.reproManifest, fields: ["/generated_at"] },
  { file: RUN_FILES.reportPdf, fields: ["/CreationDate", "/ModDate"] },
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
  /**
   * The structure tools' versions (science's `structureToolVersions()`: vina, obabel, autogrid,
   * PDBFixer/OpenMM, their Debian packages) when a structure module ran; null or absent: no file.
   */
  readonly structureTools?: unknown;
}

/** Writes repro_pack/ except the expected hashes (those come last, see writeExpectedHashes). */
export async function writeReproPack(runDir: string, info: ReproPackInfo): Promise<void> {
  const dir = join(runDir, runPath("reproPackDir"));
  const imageRef = info.image.digest
    ? `${info.image.reference.split("@")[0]}@${info.image.digest}`
    : info.image.reference;
  const rerunArgs = ["--project-id", info.projectId, "--mode", info.mode, "--module", info.moduleId];
  const args = [...rerunArgs, "--category-preset", info.categoryPreset, "--run-id", info.runId];
  await writeJsonAtomic(join(runDir, RUN_FILES.reproManifest), {
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
    hash_coverage: `every file of the run folder except ${RUN_FILES.sealDir} and ${EXPECTED_HASHES}`,
  });
  await writeJsonAtomic(join(dir, "environment", "runtime.json"), info.runtime);
  await writeJsonAtomic(join(dir, "environment", "config.json"), info.config);
  // issue 25 item 2: the versions of every program the structure modules called.
  if (info.structureTools !== undefined && info.structureTools !== null)
    await writeJsonAtomic(join(dir, "environment", "structure-tools.json"), info.structureTools);
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
  // core's script: the one `svc repro verify-script` prints and `svc seal verify` requires (issue 23 item 3).
  await writeFileAtomic(join(runDir, VERIFY_SCRIPT_PATH), VERIFY_SCRIPT, 0o755);
}

/** Lists every output file (seal/ and the hash file itself excluded) with its SHA-256. */
export async function writeExpectedHashes(runDir: string): Promise<void> {
  // core's walker: the project's one symlink policy (refuse), UTF-8 byte order (issue 15 item 4).
  const { files: paths } = await walkTree(runDir, {
    exclude: (path) => path === SEAL_DIR || path === EXPECTED_HASHES || isScratchPath(path),
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
