import { appendFile, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import {
  computeSealedRunHashes,
  digestTree,
  issueSealBundle,
  type SealBundle,
  type SigningKey,
  sha256Hex,
} from "@svc/core";

export const EXPECTED_HASHES_FILE = "repro_pack/outputs/expected_output_hashes.json";

export interface SealedRunFolderOptions {
  readonly key: SigningKey;
  /** Writes more of the run folder before it is sealed (e.g. the runner's repro pack). */
  readonly beforeSeal?: (runDir: string) => Promise<void>;
  /** Writes the per-file list; defaults to {@link writeExpectedHashesList}. */
  readonly writeExpectedHashes?: (runDir: string) => Promise<void>;
}

/**
 * Writes a small run folder (manifest, results, raw files, a per-file hash list) and seals it
 * as run_complete does: outputs_sha256 and run_manifest_sha256 computed by core, the seal
 * issued with `key`, and `seal/` written as the runner writes it.
 */
export async function writeSealedRunFolder(
  runDir: string,
  options: SealedRunFolderOptions,
): Promise<SealBundle> {
  const files: Record<string, string> = {
    // the fields verification cross-checks with the signed payload (issue 23 item 5)
    "run_manifest.json": `${JSON.stringify(
      {
        schema: "svc.run-manifest/v1",
        run_id: "run_20261123T120000Z",
        project_id: "demo",
        mode: "standard",
        category_id: "SMALL_MOLECULE__LIGAND_ONLY__NO_STRUCTURE__NO_ASSAYS",
        entitlement: { principal: "runner@customer.example" },
      },
      null,
      2,
    )}\n`,
    "results/summary.json": `${JSON.stringify({ claim_strength: "SCREENING", compounds: 3 }, null, 2)}\n`,
    "results/metrics.json": '{"compounds":3}\n',
    "raw/descriptors_raw.json": '{"rows":[1,2,3]}\n',
    "report/report.html": "<!doctype html><title>report</title>\n",
  };
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(runDir, path)), { recursive: true });
    await writeFile(join(runDir, path), content);
  }
  await options.beforeSeal?.(runDir);
  await (options.writeExpectedHashes ?? writeExpectedHashesList)(runDir);
  const hashes = await computeSealedRunHashes(runDir);
  if (hashes.run_manifest_sha256 === null) throw new Error("fixture: no run_manifest.json");
  const bundle = issueSealBundle(
    {
      seal_id: `seal_${sha256Hex(`${runDir} ${Math.random()}`).slice(0, 32)}`,
      principal: "runner@customer.example",
      run_id: "run_20261123T120000Z",
      project_id: "demo",
      mode: "standard",
      module_id: "computational",
      category_id: "SMALL_MOLECULE__LIGAND_ONLY__NO_STRUCTURE__NO_ASSAYS",
      image: { reference: "runner:1.0.0", digest: null },
      inputs_sha256: sha256Hex("inputs"),
      run_manifest_sha256: hashes.run_manifest_sha256,
      outputs_sha256: hashes.outputs_sha256,
      issued_at: "2026-11-23T12:00:00Z",
      issuer: "https://entitlement.example",
      verify_url: null,
    },
    options.key,
  );
  await mkdir(join(runDir, "seal"), { recursive: true });
  await writeFile(join(runDir, "seal", "seal.json"), bundle.sealJson);
  await writeFile(join(runDir, "seal", "seal.sig"), bundle.sealSig);
  await writeFile(join(runDir, "seal", "seal.svg"), bundle.sealSvg);
  await writeFile(join(runDir, "seal", "public_key.pem"), bundle.publicKeyPem);
  await writeFile(join(runDir, "seal", "VERIFY.md"), bundle.verifyMd);
  return bundle;
}

/** The per-file list in the runner's format: one `{"path", "sha256"}` entry per line. */
export async function writeExpectedHashesList(runDir: string): Promise<void> {
  const tree = await digestTree(runDir, {
    exclude: (path) => path === "seal" || path === EXPECTED_HASHES_FILE,
  });
  const lines = tree.entries.map(
    (entry) => `    {"path": ${JSON.stringify(entry.path)}, "sha256": "${entry.sha256}"}`,
  );
  await mkdir(dirname(join(runDir, EXPECTED_HASHES_FILE)), { recursive: true });
  await writeFile(
    join(runDir, EXPECTED_HASHES_FILE),
    `{\n  "schema": "svc.expected-output-hashes/v1",\n  "algorithm": "sha256",\n  "files": [\n${lines.join(",\n")}\n  ]\n}\n`,
  );
}

/** The tampering issue 9 lists for a run folder, each after sealing. */
export const RUN_FOLDER_TAMPERING = {
  "edited output": async (runDir: string) => {
    await appendFile(join(runDir, "results/metrics.json"), " ");
  },
  "edited manifest": async (runDir: string) => {
    await appendFile(join(runDir, "run_manifest.json"), " ");
  },
  "deleted file": async (runDir: string) => {
    await rm(join(runDir, "raw/descriptors_raw.json"));
  },
  "added file": async (runDir: string) => {
    await writeFile(join(runDir, "results/extra.json"), "{}\n");
  },
  "rewritten expected-hashes list": async (runDir: string, rewrite = writeExpectedHashesList) => {
    // The attack of issue 9: a stronger claim written into the summary, the list rewritten to match.
    const path = join(runDir, "results/summary.json");
    await writeFile(path, (await readFile(path, "utf8")).replace("SCREENING", "PROOF"));
    await rewrite(runDir);
  },
} as const;

export type RunFolderTampering = keyof typeof RUN_FOLDER_TAMPERING;
