export { type CanonicalValue, canonicalBytes, canonicalize } from "./canonical-json.ts";
export { CodedError } from "./coded-error.ts";
export { ConfigProblemsError, configProblemsText } from "./config/config-problems-error.ts";
export {
  createEnvReader,
  describeEnvProblem,
  type EnvReader,
  type EnvReaderOptions,
  type EnvReadResult,
  type EnvSource,
} from "./config/env-reader.ts";
export { CLAIM_STRENGTHS, type ClaimStrength, isClaimStrength } from "./contracts/claim-strength.ts";
export * from "./contracts/cryptic-pockets-result.ts";
export * from "./contracts/docking-result.ts";
export * from "./contracts/entitlement-accounts.ts";
export * from "./contracts/entitlement-requests.ts";
export * from "./contracts/entitlement-responses.ts";
export { toInstant } from "./contracts/instant.ts";
export * from "./contracts/preflight-http.ts";
export {
  defaultRunId,
  describeIdProblem,
  ID_PATTERN,
  ID_RULE,
  idLabelValue,
  isSafeId,
  MAX_ID_LENGTH,
  projectIdSchema,
  runIdSchema,
} from "./contracts/run-id.ts";
export * from "./contracts/run-status.ts";
export { sealBundleResponseOf } from "./contracts/seal-bundle-response.ts";
export {
  consistencyQuerySchema,
  consistencyResponseSchema,
  inclusionQuerySchema,
  inclusionResponseSchema,
  logEntriesQuerySchema,
  logEntriesResponseSchema,
} from "./contracts/seal-log.ts";
export { trustedKeyListSchema, trustedKeySchema } from "./contracts/trusted-key.ts";
export { CoreError, type CoreErrorCode } from "./core-error.ts";
export { containerCpuLimit, parseCgroupV1Quota, parseCgroupV2CpuMax } from "./cpu-limit.ts";
export { sha256File, sha256Hex } from "./digest.ts";
export { recordEnvReads } from "./env-reads.ts";
export {
  defineErrorRegistry,
  type ErrorCodeEntry,
  type ErrorCodeOf,
  type ErrorCodesByStatus,
  type ErrorRegistry,
  registeredErrorClass,
} from "./error-registry.ts";
export {
  defineExitRegistry,
  type ExitCodeEntry,
  type ExitCodesByStatus,
  type ExitRegistry,
  type ExitRegistryOf,
  exitErrorClass,
} from "./exit-registry.ts";
export {
  exportPrivateKeyPem,
  exportPublicKeyPem,
  generateSigningKey,
  importPublicKeyPem,
  importSigningKeyPem,
  isKeyValidAt,
  keyIdOf,
  type SigningKey,
  signBytes,
  type TrustedKey,
  toTrustedKey,
  verifyBytes,
} from "./keys.ts";
export * from "./run-folder/read-run-folder.ts";
export * from "./run-folder/run-file-schemas.ts";
export * from "./run-folder/run-files.ts";
export {
  computeSealedRunHashes,
  isOutsideSealedOutputs,
  listUncoveredPaths,
  RUN_MANIFEST_FILE,
  SEAL_FOLDER_ENTRIES,
  type SealedRunHashes,
} from "./run-hashes.ts";
export {
  CLOUDSTORE_RESULTS_DIR,
  DATA_MOUNT_PATH,
  DEFAULT_PVC_LAYOUT,
  dataClaimName,
  inputRootOf,
  isProjectScopedOutput,
  outputRootOf,
  projectSourcesDir,
  RUN_STATUS_DIR,
  runnerRootsEnv,
  runOutputDir,
  runStatusPath,
  runStatusPathOfRunDir,
  SOURCES_DIR,
  type StorageLayout,
} from "./run-layout.ts";
export { isCanonicalBase64 } from "./seal/canonical-base64.ts";
export { CLAIM_LINE_LABELS, CLAIM_LINE_Y } from "./seal/claim-line.ts";
export {
  CLAIM_KEY_SPELLINGS,
  CLAIM_SUMMARY_FILE,
  CLAIM_SUMMARY_MAX_BYTES,
  type ClaimSummary,
  checkClaimStrength,
} from "./seal/claim-strength-check.ts";
export { verifyConsistency } from "./seal/consistency-proof.ts";
export {
  type DsseEnvelope,
  dsseEnvelopeSchema,
  openDsseEnvelope,
  preAuthEncoding,
  signDsseEnvelope,
} from "./seal/dsse-envelope.ts";
export { verifyInclusion } from "./seal/inclusion-proof.ts";
export { checkIssuerAnswer, type IssuerAnswer } from "./seal/issuer-answer-check.ts";
export {
  type CheckpointRefusal,
  formatCheckpoint,
  type LogCheckpoint,
  logOriginOf,
  openCheckpoint,
  parseCheckpoint,
  signCheckpoint,
} from "./seal/log-checkpoint.ts";
export { checkIssuerLog, type IssuerLogAnswer, isConsistentExtension } from "./seal/log-consistency-check.ts";
export {
  issuedEntryOf,
  type LogEntry,
  logEntryBytes,
  logEntrySchema,
  parseLogEntry,
} from "./seal/log-entry.ts";
export {
  checkLogProofFile,
  checkLogProofPresence,
  formatLogProofFile,
  LOG_PROOF_FILE,
  LOG_PROOF_VERSION,
  type LogProof,
  logProofOf,
  logProofSchema,
  type VerifiedLogProof,
} from "./seal/log-proof-file.ts";
export { emptyTreeHash, hashChildren, hashLeaf, MERKLE_HASH_SIZE } from "./seal/merkle-hash.ts";
export {
  consistencyProofRanges,
  foldSubtreeHashes,
  inclusionProofRanges,
  type LeafRange,
  largestPowerOfTwoBelow,
  type SubtreeCoordinate,
  siblingsNeededToAppend,
  subtreesCompletedBy,
  subtreesOfRange,
} from "./seal/merkle-subtrees.ts";
export { checkProvenanceFile } from "./seal/provenance-file.ts";
export { findProvenancePathProblem, type ProvenancePathProblem } from "./seal/provenance-paths.ts";
export {
  AUDIT_RUN_BUILD_TYPE,
  AUDIT_RUNNER_BUILDER_ID,
  buildProvenanceStatement,
  formatProvenanceLine,
  IN_TOTO_PAYLOAD_TYPE,
  IN_TOTO_STATEMENT_TYPE,
  PROVENANCE_FILE,
  type ProvenanceFacts,
  type ProvenanceStatement,
  provenanceDisagreement,
  provenanceFactsSchema,
  SLSA_PROVENANCE_V1,
  signProvenanceFile,
  treeListingSha256,
} from "./seal/provenance-statement.ts";
export { checkReleasedImage } from "./seal/released-image-check.ts";
export { renderPresealSvg, renderSealSvg } from "./seal/render-seal-svg.ts";
export {
  checkRunCoverage,
  checkRunHashes,
  checkSealCompanions,
  checkVerifyScript,
  type ExpectedFileHashes,
  type SealCompanionFiles,
} from "./seal/run-folder-checks.ts";
export { checkRunManifestFields } from "./seal/run-manifest-fields-check.ts";
export {
  issueSealBundle,
  type SealBundle,
  type SealFields,
  type SealFolderFiles,
  verifySealFolder,
} from "./seal/seal-bundle.ts";
export { SEAL_FILE_MAX_BYTES, sealFileMaxBytes, sealFileTooLarge } from "./seal/seal-file-caps.ts";
export {
  ATTESTATION_LEVELS,
  type AttestationLevel,
  barcodeContent,
  computeBarcodeDigest,
  describeAttestation,
  describeClaimStrength,
  imageRefSchema,
  isSealPayload,
  newSealId,
  PRESEAL_REASONS,
  PRESEAL_VERSION,
  type PresealPayload,
  type PresealReason,
  parsePresealPayload,
  parseSealPayload,
  presealPayloadSchema,
  SEAL_VERSION,
  SEAL_VERSION_V2,
  SEAL_VERSIONS,
  type SealPayload,
  sealIdSchema,
  sealPayloadSchema,
} from "./seal/seal-payload.ts";
export {
  REASON_PRIORITY,
  SEAL_REASON_CODES,
  SEAL_STATES,
  type SealReasonCode,
  type SealState,
  stateOfReason,
} from "./seal/seal-reason-code.ts";
export { decodeSealSig } from "./seal/seal-sig.ts";
export {
  assertSealText,
  describeUnsafeSealText,
  findUnsafeSealText,
  SEAL_TEXT_RULES,
  type SealTextField,
  type SealTextFields,
} from "./seal/seal-text.ts";
export {
  isNoteKeyName,
  type NoteSignature,
  type NoteVerifier,
  noteKeyHash,
  noteVerifierKey,
  openNote,
  parseNote,
  rawEd25519PublicKey,
  signNote,
} from "./seal/signed-note.ts";
export { SVG_LIMITS } from "./seal/svg-document.ts";
export {
  EXPECTED_OUTPUT_HASHES_FILE,
  isReleasedVerifyScript,
  RELEASED_VERIFY_SCRIPT_SHA256,
  VERIFY_SCRIPT,
  VERIFY_SCRIPT_PATH,
} from "./seal/verify-script.ts";
export {
  decodeSealChannels,
  refuseOversizeSeal,
  SEAL_SVG_CAPS,
  type SealCheck,
  type SealCheckName,
  type SealVerification,
  verifySealSvg,
  withChecks,
} from "./seal/verify-seal-svg.ts";
export { type DigestTreeOptions, digestTree, type TreeDigest, type TreeEntry } from "./tree-digest.ts";
export { checkTrustedKeys, type TrustedKeysCheck } from "./trusted-keys-check.ts";
export { compareUtf8, type TreeWalk, type WalkTreeOptions, walkTree } from "./walk-tree.ts";
