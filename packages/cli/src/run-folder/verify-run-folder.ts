import { readFile } from "node:fs/promises";
import { join } from "node:path";
import {
  CLAIM_SUMMARY_FILE,
  CLAIM_SUMMARY_MAX_BYTES,
  CoreError,
  canonicalBytes,
  checkClaimStrength,
  checkLogProofFile,
  checkLogProofPresence,
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
  RUN_FILES,
  RUN_MANIFEST_FILE,
  readRunFolder,
  refuseOversizeSeal,
  SEAL_DIR,
  SEAL_FILES,
  type SealCheck,
  type SealPayload,
  type SealVerification,
  sealFileMaxBytes,
  sealFileTooLarge,
  type TrustedKey,
  VERIFY_SCRIPT_PATH,
  type VerifiedLogProof,
  verifySealFolder,
  withChecks,
} from "@svc/core";
import { CliError } from "../cli-error.ts";
import { readCappedFile } from "./read-capped-file.ts";

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
 * values, and that results/summary.json states the signed claim strength when the seal carries one.
 * The folder's own key is never used.
 */
export async function verifyRunFolder(
  runDir: string,
  keys: readonly TrustedKey[],
): Promise<RunFolderVerification> {
  const sealDir = join(runDir, SEAL_DIR);
  // issue 38 item 8: every file is sized before it is read; one over its cap is not read
  const tooLarge: SealCheck[] = [];
  const read = async (relative: string, capName: string): Promise<Buffer | null> => {
    const got = await readCappedFile(join(runDir, relative), sealFileMaxBytes(capName));
    if (got.kind === "too_large") tooLarge.push(sealFileTooLarge(relative, got.size, got.cap));
    return got.kind === "file" ? got.bytes : null;
  };
  let svgPath = join(sealDir, SEAL_FILES.svg);
  let svgRead = await readCappedFile(svgPath, sealFileMaxBytes(SEAL_FILES.svg));
  if (svgRead.kind === "absent") {
    svgPath = join(sealDir, SEAL_FILES.presealSvg);
    svgRead = await readCappedFile(svgPath, sealFileMaxBytes(SEAL_FILES.presealSvg));
  }
  if (svgRead.kind === "absent") {
    throw new CliError(
      "FILE_NOT_FOUND",
      `${join(sealDir, SEAL_FILES.svg)}: no such file (is ${runDir} a run folder?)`,
    );
  }
  if (svgRead.kind === "too_large") {
    // the verdict verifySealSvg gives an oversize image, from its size alone
    const refused = refuseOversizeSeal(svgRead.size);
    if (refused !== null) return { result: refused, svgPath, svg: Buffer.alloc(0) };
    throw new Error("seal.svg over its read cap but within SEAL_SVG_CAPS");
  }
  const svg = svgRead.bytes;
  const seal = verifySealFolder(
    {
      sealSvg: svg,
      sealJson: await read(`${SEAL_DIR}/${SEAL_FILES.json}`, SEAL_FILES.json),
      sealSig:
        (await read(`${SEAL_DIR}/${SEAL_FILES.signature}`, SEAL_FILES.signature))?.toString("utf8") ?? null,
    },
    keys,
  );
  if (seal.payload === null) return { result: withChecks(seal, tooLarge), svgPath, svg };
  let actual: Awaited<ReturnType<typeof computeSealedRunHashes>>;
  try {
    actual = await computeSealedRunHashes(runDir);
  } catch (error) {
    if (!(error instanceof CoreError)) throw error;
    const detail = `the outputs cannot be hashed: ${error.message}`;
    return {
      result: withChecks(seal, [
        ...tooLarge,
        { name: "run_outputs", ok: false, detail, code: "RUN_OUTPUTS_CHANGED" },
      ]),
      svgPath,
      svg,
    };
  }
  let logProof: VerifiedLogProof | null = null;
  const logFile = isSealPayload(seal.payload)
    ? await read(`${SEAL_DIR}/${LOG_PROOF_FILE}`, LOG_PROOF_FILE)
    : null;
  const logChecks: SealCheck[] = [];
  if (logFile !== null && isSealPayload(seal.payload)) {
    // issue 30 item 4: the seal's leaf, proved offline into a checkpoint a pinned key signed
    const checked = checkLogProofFile(seal.payload, canonicalBytes(seal.payload), logFile, keys);
    logChecks.push(checked.check);
    logProof = checked.verified;
  } else if (isSealPayload(seal.payload) && tooLarge.length === 0) {
    // issue 38 item 2: an issuer that keeps a log puts its proof in every seal folder
    const missing = checkLogProofPresence(seal.payload, keys);
    if (missing !== null) logChecks.push(missing);
  }
  // issue 30 item 6: the signed SLSA provenance, when the issuer signed one, must be the seal's
  const provenanceFile = isSealPayload(seal.payload)
    ? await read(`${SEAL_DIR}/${PROVENANCE_FILE}`, PROVENANCE_FILE)
    : null;
  if (provenanceFile !== null && isSealPayload(seal.payload))
    logChecks.push(checkProvenanceFile(seal.payload, provenanceFile, keys));
  const checks = [
    ...(await checkFolderFiles(runDir, seal.payload, read)),
    ...logChecks,
    ...checkRunHashes(seal.payload, actual, await readExpectedList(runDir)),
  ];
  // issue 23 item 5: the sealed manifest must also name the signed principal, run, project, mode, category
  const manifest = await readOptional(join(runDir, RUN_MANIFEST_FILE));
  if (manifest !== null) checks.push(checkRunManifestFields(seal.payload, manifest.toString("utf8")));
  // issue 37 item 3: the summary must state the claim strength the seal signs and draws
  if (isSealPayload(seal.payload) && seal.payload.claim_strength !== undefined) {
    const summary = await readCappedFile(join(runDir, CLAIM_SUMMARY_FILE), CLAIM_SUMMARY_MAX_BYTES);
    const claim = checkClaimStrength(
      seal.payload,
      summary.kind === "file" ? { kind: "file", text: summary.bytes.toString("utf8") } : summary,
    );
    if (claim !== null) checks.push(claim);
  }
  const result = withChecks(seal, [...tooLarge, ...checks]);
  return { result, svgPath, svg, logProof };
}

/**
 * What a person reads beyond the hashed outputs (issue 23 items 2 and 3): the seal's companion
 * files byte for byte, the released verify.sh, and nothing in the folder outside the seal.
 */
async function checkFolderFiles(
  runDir: string,
  payload: SealPayload | PresealPayload,
  read: (relative: string, capName: string) => Promise<Buffer | null>,
): Promise<SealCheck[]> {
  const sealed = isSealPayload(payload);
  const checks: SealCheck[] = [];
  if (sealed)
    checks.push(
      ...checkSealCompanions(payload, {
        verifyMd: await read(`${SEAL_DIR}/${SEAL_FILES.instructions}`, SEAL_FILES.instructions),
        publicKeyPem: await read(`${SEAL_DIR}/${SEAL_FILES.publicKey}`, SEAL_FILES.publicKey),
      }),
    );
  checks.push(checkVerifyScript(await read(VERIFY_SCRIPT_PATH, VERIFY_SCRIPT_PATH)));
  checks.push(checkRunCoverage(await listUncoveredPaths(runDir, sealed ? "sealed" : "preseal")));
  return checks;
}

/**
 * The folder's per-file list, if readable and its shape (core's run-folder reader): it only names
 * differing files, it proves nothing, so an unreadable list is no list.
 */
async function readExpectedList(runDir: string): Promise<ExpectedFileHashes | null> {
  const list = await readRunFolder(runDir)
    .expectedHashes()
    .catch(() => null);
  return list === null ? null : { path: RUN_FILES.expectedHashes, files: list.files };
}

async function readOptional(path: string): Promise<Buffer | null> {
  try {
    return await readFile(path);
  } catch {
    return null;
  }
}
