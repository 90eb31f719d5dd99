import { appendFile, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import {
  computeSealedRunHashes,
  digestTree,
  issueSealBundle,
  RUN_FILES,
  RUN_MANIFEST_FILE,
  runPath,
  SEAL_DIR,
  type SealBundle,
  type SealFields,
  type SigningKey,
  sha256Hex,
  VERIFY_SCRIPT,
  VERIFY_SCRIPT_PATH,
} from "@svc/core";

/** The runner's per-file hash list (core's run-folder contract). */
export const EXPECTED_HASHES_FILE = RUN_FILES.expectedHashes;

export interface SealedRunFolderOptions {
  readonly key: SigningKey;
  /** Writes more of the run folder before it is sealed (e.g. the runner's repro pack). */
  readonly beforeSeal?: (runDir: string) => Promise<void>;
  /** Writes the per-file list; defaults to {@link writeExpectedHashesList}. */
  readonly writeExpectedHashes?: (runDir: string) => Promise<void>;
  /** Signed fields to set differently (e.g. a verify_url, a long project id). */
  readonly fields?: Partial<
    Pick<
      SealFields,
      | "project_id"
      | "run_id"
      | "verify_url"
      | "issuer"
      | "seal_id"
      | "issued_at"
      | "inputs_sha256"
      | "claim_strength"
    >
  >;
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
    [RUN_MANIFEST_FILE]: `${JSON.stringify(
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
    // a seal that signs a claim strength is issued over a summary that states it (issue 37 item 3)
    [RUN_FILES.summary]: `${JSON.stringify({ claim_strength: options.fields?.claim_strength ?? "SCREENING", compounds: 3 }, null, 2)}\n`,
    [RUN_FILES.metrics]: '{"compounds":3}\n',
    [runPath("moduleRaw", { module: "descriptors" })]: '{"rows":[1,2,3]}\n',
    "report/report.html": "<!doctype html><title>report</title>\n",
  };
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(runDir, path)), { recursive: true });
    await writeFile(join(runDir, path), content);
  }
  // The released verify.sh, as every runner writes it (issue 23 item 3: svc seal verify requires it).
  await mkdir(dirname(join(runDir, VERIFY_SCRIPT_PATH)), { recursive: true });
  await writeFile(join(runDir, VERIFY_SCRIPT_PATH), VERIFY_SCRIPT, { mode: 0o755 });
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
      ...options.fields,
    },
    options.key,
  );
  await mkdir(join(runDir, SEAL_DIR), { recursive: true });
  await writeFile(join(runDir, RUN_FILES.sealJson), bundle.sealJson);
  await writeFile(join(runDir, RUN_FILES.sealSignature), bundle.sealSig);
  await writeFile(join(runDir, RUN_FILES.sealSvg), bundle.sealSvg);
  await writeFile(join(runDir, RUN_FILES.sealPublicKey), bundle.publicKeyPem);
  await writeFile(join(runDir, RUN_FILES.sealInstructions), bundle.verifyMd);
  return bundle;
}

/** The per-file list in the runner's format: one `{"path", "sha256"}` entry per line. */
export async function writeExpectedHashesList(runDir: string): Promise<void> {
  const tree = await digestTree(runDir, {
    exclude: (path) => path === SEAL_DIR || path === EXPECTED_HASHES_FILE,
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
    await appendFile(join(runDir, RUN_FILES.metrics), " ");
  },
  "edited manifest": async (runDir: string) => {
    await appendFile(join(runDir, RUN_MANIFEST_FILE), " ");
  },
  "deleted file": async (runDir: string) => {
    await rm(join(runDir, runPath("moduleRaw", { module: "descriptors" })));
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

export interface RunFolderForgery {
  readonly apply: (runDir: string) => Promise<void>;
  readonly code: string;
  readonly verifySh: RegExp | null;
}

/**
 * What issue 23 items 2 and 3 found a forger can add to or change in a sealed run folder without
 * touching a hashed output: each must fail folder verification with `code` (`svc seal verify`)
 * and make the released verify.sh say FAILED with a line matching `verifySh` (null: a check only
 * `svc seal verify` can make, and verify.sh's header says so).
 */
export const RUN_FOLDER_FORGERIES: Record<string, RunFolderForgery> = {
  "a .scratch-0/ copy of the report with edited findings": {
    apply: async (runDir) => {
      const report = await readFile(join(runDir, "report/report.html"), "utf8");
      await mkdir(join(runDir, ".scratch-0"), { recursive: true });
      await writeFile(join(runDir, ".scratch-0/report.html"), report.replace("report", "ALL 34 CLEARED"));
    },
    code: "RUN_FOLDER_UNCOVERED",
    verifySh: /RUN_FOLDER_UNCOVERED[\s\S]*\.scratch-0/,
  },
  "a .scratch/FINAL_REPORT.txt": {
    apply: async (runDir) => {
      await mkdir(join(runDir, ".scratch"), { recursive: true });
      await writeFile(join(runDir, ".scratch/FINAL_REPORT.txt"), "FINAL: every compound cleared\n");
    },
    code: "RUN_FOLDER_UNCOVERED",
    verifySh: /RUN_FOLDER_UNCOVERED[\s\S]*\.scratch\b/,
  },
  "a top-level .scratch-README.txt": {
    apply: (runDir) => writeFile(join(runDir, ".scratch-README.txt"), "The seal attests the science.\n"),
    code: "RUN_FOLDER_UNCOVERED",
    verifySh: /RUN_FOLDER_UNCOVERED[\s\S]*\.scratch-README\.txt/,
  },
  "empty folders whose names make claims": {
    apply: async (runDir) => {
      await mkdir(join(runDir, "FDA_APPROVED"));
      await mkdir(join(runDir, "results/ALL_34_CLEARED"));
    },
    code: "RUN_FOLDER_UNCOVERED",
    verifySh: /RUN_FOLDER_UNCOVERED[\s\S]*FDA_APPROVED[\s\S]*results\/ALL_34_CLEARED/,
  },
  "a rewritten seal/VERIFY.md": {
    apply: async (runDir) => {
      const path = join(runDir, "seal/VERIFY.md");
      const text = (await readFile(path, "utf8"))
        .replace("It does not attest that the science is right", "It attests that the science is right")
        .replace(/key `[^`]+`/, "key `ed25519:00000000000000000000000000000000`");
      await writeFile(path, text);
    },
    code: "SEAL_FILES_DISAGREE",
    // issue 38 item 7: verify.sh v5 rebuilds VERIFY.md from the signed fields, as svc seal verify does
    verifySh: /seal\/VERIFY\.md is not the issuer's text for this seal \(SEAL_FILES_DISAGREE\)/,
  },
  "an added seal/CERTIFICATE.html": {
    apply: (runDir) =>
      writeFile(join(runDir, "seal/CERTIFICATE.html"), "<h1>Certificate: the science is right</h1>\n"),
    code: "RUN_FOLDER_UNCOVERED",
    verifySh: /RUN_FOLDER_UNCOVERED[\s\S]*seal\/CERTIFICATE\.html/,
  },
  "an edited report copy under seal/": {
    apply: async (runDir) => {
      const report = await readFile(join(runDir, "report/report.html"), "utf8");
      await writeFile(join(runDir, "seal/report.html"), report.replace("report", "ALL 34 CLEARED"));
    },
    code: "RUN_FOLDER_UNCOVERED",
    verifySh: /RUN_FOLDER_UNCOVERED[\s\S]*seal\/report\.html/,
  },
  "a swapped seal/public_key.pem": {
    apply: async (runDir) => {
      const { generateKeyPairSync } = await import("node:crypto");
      const { publicKey } = generateKeyPairSync("ed25519");
      await writeFile(join(runDir, "seal/public_key.pem"), publicKey.export({ format: "pem", type: "spki" }));
    },
    code: "SEAL_FILES_DISAGREE",
    verifySh: /public_key\.pem is not the key that signed/,
  },
  "a verify.sh that prints the sealed hashes": {
    apply: async (runDir) => {
      const path = join(runDir, VERIFY_SCRIPT_PATH);
      const script = await readFile(path, "utf8");
      await writeFile(
        path,
        script.replace("set -euo pipefail\n", 'set -euo pipefail\necho "verify: OK"; exit 0\n'),
      );
    },
    // The outputs changed too (verify.sh is hashed); the script check comes first, in both verifiers.
    code: "VERIFY_SCRIPT_NOT_RELEASED",
    verifySh: /VERIFY_SCRIPT_NOT_RELEASED/,
  },
  "rewritten labels in seal/seal.svg": {
    apply: async (runDir) => {
      const path = join(runDir, "seal/seal.svg");
      await writeFile(path, (await readFile(path, "utf8")).replace(">run run_", ">run CLEARED_"));
    },
    code: "IMAGE_NOT_CANONICAL",
    verifySh: /seal\.svg is not the canonical rendering/,
  },
  "a deleted seal/seal.svg": {
    apply: (runDir) => rm(join(runDir, "seal/seal.svg")),
    code: "FILE_NOT_FOUND",
    verifySh: /seal\/seal\.svg is missing/,
  },
};
