import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import {
  CoreError,
  canonicalBytes,
  checkLogProofFile,
  checkProvenanceFile,
  checkRunCoverage,
  checkRunHashes,
  checkRunManifestFields,
  checkSealCompanions,
  checkVerifyScript,
  computeSealedRunHashes,
  type ExpectedFileHashes,
  isSealPayload,
  LOG_PROOF_FILE,
  listUncoveredPaths,
  PROVENANCE_FILE,
  type PresealPayload,
  RUN_MANIFEST_FILE,
  SEAL_DIR,
  SEAL_FILES,
  type SealCheck,
  type SealPayload,
  type SealVerification,
  type TrustedKey,
  VERIFY_SCRIPT_PATH,
  type VerifiedLogProof,
  verifySealFolder,
  withChecks,
} from "@svc/core";
import { CliError } from "../cli-error.ts";

const EXPECTED_HASHES = "repro_pack/outputs/expected_output_hashes.json";

export interface RunFolderVerification {
  readonly result: SealVerification;
  /** The folder's log proof once verified offline (issue 30), for the issuer's consistency check. */
  readonly logProof?: VerifiedLogProof | null;
  readonly svgPath: string;
  readonly svg: Buffer;
}

/**
 * Verifies a run output folder (issue 9 §3): its `seal/` (seal.svg, and seal.json / seal.sig
 * agreeing with it; VERIFY.md and public_key.pem as the payload reproduces them), its verify.sh
 * (a released one), that nothing in the folder is outside the seal (issue 23 item 2), then
 * recomputes `run_manifest_sha256` and `outputs_sha256` from the folder and requires the signed
 * values. The folder's own key is never used.
 */
export async function verifyRunFolder(
  runDir: string,
  keys: readonly TrustedKey[],
): Promise<RunFolderVerification> {
  const sealDir = join(runDir, "seal");
  const svgPath = (await isFile(join(sealDir, SEAL_FILES.svg)))
    ? join(sealDir, SEAL_FILES.svg)
    : (await isFile(join(sealDir, SEAL_FILES.presealSvg)))
      ? join(sealDir, SEAL_FILES.presealSvg)
      : null;
  if (!svgPath) {
    throw new CliError(
      "FILE_NOT_FOUND",
      `${join(sealDir, SEAL_FILES.svg)}: no such file (is ${runDir} a run folder?)`,
    );
  }
  const svg = await readFile(svgPath);
  const seal = verifySealFolder(
    {
      sealSvg: svg,
      sealJson: await readOptional(join(sealDir, SEAL_FILES.json)),
      sealSig: (await readOptional(join(sealDir, SEAL_FILES.signature)))?.toString("utf8") ?? null,
    },
    keys,
  );
  if (seal.payload === null) return { result: seal, svgPath, svg };
  let actual: Awaited<ReturnType<typeof computeSealedRunHashes>>;
  try {
    actual = await computeSealedRunHashes(runDir);
  } catch (error) {
    if (!(error instanceof CoreError)) throw error;
    const detail = `the outputs cannot be hashed: ${error.message}`;
    return {
      result: withChecks(seal, [{ name: "run_outputs", ok: false, detail, code: "RUN_OUTPUTS_CHANGED" }]),
      svgPath,
      svg,
    };
  }
  let logProof: VerifiedLogProof | null = null;
  const logFile = isSealPayload(seal.payload) ? await readOptional(join(sealDir, LOG_PROOF_FILE)) : null;
  const logChecks: SealCheck[] = [];
  if (logFile !== null && isSealPayload(seal.payload)) {
    // issue 30 item 4: the seal's leaf, proved offline into a checkpoint a pinned key signed
    const checked = checkLogProofFile(seal.payload, canonicalBytes(seal.payload), logFile, keys);
    logChecks.push(checked.check);
    logProof = checked.verified;
  }
  // issue 30 item 6: the signed SLSA provenance, when the issuer signed one, must be the seal's
  const provenanceFile = isSealPayload(seal.payload)
    ? await readOptional(join(sealDir, PROVENANCE_FILE))
    : null;
  if (provenanceFile !== null && isSealPayload(seal.payload))
    logChecks.push(checkProvenanceFile(seal.payload, provenanceFile, keys));
  const checks = [
    ...(await checkFolderFiles(runDir, seal.payload)),
    ...logChecks,
    ...checkRunHashes(seal.payload, actual, await readExpectedList(runDir)),
  ];
  // issue 23 item 5: the sealed manifest must also name the signed principal, run, project, mode, category
  const manifest = await readOptional(join(runDir, RUN_MANIFEST_FILE));
  if (manifest !== null) checks.push(checkRunManifestFields(seal.payload, manifest.toString("utf8")));
  const result = withChecks(seal, checks);
  return { result, svgPath, svg, logProof };
}

/**
 * What a person reads beyond the hashed outputs (issue 23 items 2 and 3): the seal's companion
 * files byte for byte, the released verify.sh, and nothing in the folder outside the seal.
 */
async function checkFolderFiles(runDir: string, payload: SealPayload | PresealPayload): Promise<SealCheck[]> {
  const sealed = isSealPayload(payload);
  const checks: SealCheck[] = [];
  if (sealed)
    checks.push(
      ...checkSealCompanions(payload, {
        verifyMd: await readOptional(join(runDir, SEAL_DIR, SEAL_FILES.instructions)),
        publicKeyPem: await readOptional(join(runDir, SEAL_DIR, SEAL_FILES.publicKey)),
      }),
    );
  checks.push(checkVerifyScript(await readOptional(join(runDir, VERIFY_SCRIPT_PATH))));
  checks.push(checkRunCoverage(await listUncoveredPaths(runDir, sealed ? "sealed" : "preseal")));
  return checks;
}

/** The folder's per-file list, if readable: it only names differing files, it proves nothing. */
async function readExpectedList(runDir: string): Promise<ExpectedFileHashes | null> {
  const text = await readOptional(join(runDir, EXPECTED_HASHES));
  if (text === null) return null;
  try {
    const files = (JSON.parse(text.toString("utf8")) as { files?: unknown }).files;
    if (!Array.isArray(files)) return null;
    const valid = files.filter(
      (file): file is { path: string; sha256: string } =>
        typeof file?.path === "string" && typeof file?.sha256 === "string",
    );
    return { path: EXPECTED_HASHES, files: valid };
  } catch {
    return null;
  }
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

async function readOptional(path: string): Promise<Buffer | null> {
  try {
    return await readFile(path);
  } catch {
    return null;
  }
}
