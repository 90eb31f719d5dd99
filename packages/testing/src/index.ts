export { parseCsv } from "./csv/parse-csv.ts";
export {
  assertGeneratedBlock,
  findGeneratedBlocks,
  type GeneratedBlock,
  generatedBlockMarkers,
  replaceGeneratedBlock,
  textOutsideGeneratedBlocks,
  UPDATE_DOCS_ENV,
} from "./docs/generated-block.ts";
export {
  describeEntitlementContract,
  type EntitlementUnderContract,
} from "./entitlement/entitlement-contract-suite.ts";
export { type FakeEntitlement, startFakeEntitlement } from "./entitlement/fake-entitlement.ts";
export {
  type FakeMetadataOptions,
  type FakeMetadataServer,
  type MetadataRequest,
  startFakeMetadataServer,
} from "./gke-metadata/index.ts";
export { buildSumdbCheck, goCheckRunFolder, goMissingReason } from "./interop/go-log-proof-check.ts";
export {
  assertValidJobManifest,
  type CoreResource,
  type ExecHandler,
  type ExecRequest,
  type ExecResult,
  type InjectedFailure,
  type KubeApiDouble,
  type KubeApiDoubleOptions,
  type KubeObject,
  matchesLabelSelector,
  type ProcessKubelet,
  type ProcessKubeletOptions,
  type RecordedKubeRequest,
  type RunningPod,
  startKubeApiDouble,
  startProcessKubelet,
  type WriteKubeconfigOptions,
  writeKubeconfig,
} from "./kube/index.ts";
export {
  type MintTokenOptions,
  type OidcIssuerDouble,
  startOidcIssuerDouble,
} from "./oidc/oidc-issuer-double.ts";
export { findFreePort, startTestPostgres, type TestPostgres } from "./postgres/test-postgres.ts";
export { assertBusyPortLine, startOnBusyPort } from "./process/busy-port.ts";
export { completedSummaryDocument, writeRunFolderDocuments } from "./run-folder/run-folder-documents.ts";
export {
  buildForgeryCorpus,
  type ForgeryCorpusInput,
  type SealForgery,
} from "./seal/forgery-corpus.ts";
export { issueCorpusSeals, prettyPrintSeal } from "./seal/genuine-seals.ts";
export {
  fabricatePreseal,
  forgeForAnotherIssuer,
  forgeUnderIssuedSealId,
  forgeWithRetiredKey,
  type IssuerForgery,
  RETIRED_KEY_ISSUED_AT,
} from "./seal/issuer-forgeries.ts";
export { type ParityCase, SEAL_PARITY_CORPUS, setPadBit, writeParityFolder } from "./seal/parity-corpus.ts";
export {
  EXPECTED_HASHES_FILE,
  RUN_FOLDER_FORGERIES,
  RUN_FOLDER_TAMPERING,
  type RunFolderForgery,
  type RunFolderTampering,
  type SealedRunFolderOptions,
  writeExpectedHashesList,
  writeSealedRunFolder,
} from "./seal/sealed-run-folder.ts";
export { type ThrownErrorCode, thrownErrorCodes } from "./source/thrown-error-codes.ts";
export { createTempDir, makeTempDir, type TempDir, type TempDirOwner } from "./temp/temp-dir.ts";
