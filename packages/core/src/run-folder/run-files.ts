// The run folder's contract (issue 41 item 1, docs/contracts/run-folder.md): every file and
// folder of `<output-root>/<run_id>/` is named here once. The runner writes by these names, and
// preflight, the CLI, the report and @svc/testing read by them (through `readRunFolder`); a test
// (test/run-folder-contract.test.ts) finds no other spelling of them in production code, and one
// keeps the docs table equal to RUN_FILES. Pure: names and patterns, nothing touched.

/** The folder beside the outputs that holds the seal (or the pre-seal). */
export const SEAL_DIR = "seal";

/**
 * The files of a run's `seal/` folder (spec §2.3; docs/contracts/storage-layout.md), one name each:
 * the runner writes them, core's verifier checks them, preflight and the CLI read them — every
 * package spells them from here (issue 29 item 6).
 */
export const SEAL_FILES = Object.freeze({
  svg: "seal.svg",
  json: "seal.json",
  signature: "seal.sig",
  publicKey: "public_key.pem",
  instructions: "VERIFY.md",
  logProof: "log-proof.json",
  provenance: "provenance.intoto.jsonl",
  preseal: "preseal.json",
  presealSvg: "preseal.svg",
  /** Where runners before issue 29 kept the sealed state of a pre-seal; still read. */
  pending: "pending",
} as const);

/** The runner's scratch folder (`.scratch`, or a shard pod's `.scratch-<index>`): never an output. */
export const SCRATCH_DIR = ".scratch";

/**
 * Every path of a run folder, relative to it, `/`-separated. A folder ends with `/`. A `<name>`
 * part is filled by {@link runPath}: `<run_id>` the run id, `<module>` a module id, `<index>` a
 * staged structure's 0-based index in sources.json `pdbs`, `<candidate>` a file-safe candidate id.
 */
export const RUN_FILES = Object.freeze({
  /** What the run did: config, runtime, entitlement; its SHA-256 is sealed as `run_manifest_sha256`. */
  manifest: "run_manifest.json",
  resultsDir: "results/",
  summary: "results/summary.json",
  metrics: "results/metrics.json",
  riskChannelsMap: "results/risk_channels_map.json",
  combined: "results/combined_unified_computational_outputs.json",
  /** A structure module's own result file (molecular_docking, physics_audit, …). */
  moduleResult: "results/<module>.json",
  dockingResult: "results/molecular_docking.json",
  crypticPocketsResult: "results/cryptic_pockets.json",
  posesDir: "results/poses/",
  structurePosesDir: "results/poses/structure-<index>/",
  pose: "results/poses/structure-<index>/<candidate>.sdf",
  reportHtml: "results/report.html",
  reportCsv: "results/report.csv",
  reportSummaryCsv: "results/report-summary.csv",
  reportPdf: "results/report.pdf",
  thresholdsDir: "thresholds/",
  categoryScores: "thresholds/category_scores.json",
  measurementProfile: "thresholds/measurement_profile.json",
  riskSummary: "thresholds/risk_summary.json",
  plansDir: "plans/",
  modulePlan: "plans/<run_id>_module_plan.json",
  rawDir: "raw/",
  moduleRaw: "raw/<module>_raw.json",
  inputsDir: "inputs/",
  inputHashes: "inputs/input_hashes.json",
  validation: "inputs/validation.json",
  reproPackDir: "repro_pack/",
  reproManifest: "repro_pack/manifest.json",
  expectedHashes: "repro_pack/outputs/expected_output_hashes.json",
  verifyScript: "repro_pack/container/verify.sh",
  sealDir: `${SEAL_DIR}/`,
  sealJson: `${SEAL_DIR}/${SEAL_FILES.json}`,
  sealSignature: `${SEAL_DIR}/${SEAL_FILES.signature}`,
  sealSvg: `${SEAL_DIR}/${SEAL_FILES.svg}`,
  sealPublicKey: `${SEAL_DIR}/${SEAL_FILES.publicKey}`,
  sealInstructions: `${SEAL_DIR}/${SEAL_FILES.instructions}`,
  sealLogProof: `${SEAL_DIR}/${SEAL_FILES.logProof}`,
  sealProvenance: `${SEAL_DIR}/${SEAL_FILES.provenance}`,
  preseal: `${SEAL_DIR}/${SEAL_FILES.preseal}`,
  presealSvg: `${SEAL_DIR}/${SEAL_FILES.presealSvg}`,
  presealPending: `${SEAL_DIR}/${SEAL_FILES.pending}/`,
  scratchDir: `${SCRATCH_DIR}/`,
  shardScratchDir: `${SCRATCH_DIR}-<index>/`,
} as const);

export type RunFileKey = keyof typeof RUN_FILES;

/** The `<name>` parts a pattern of {@link RUN_FILES} holds, as the object {@link runPath} takes. */
type PartsOf<P extends string> = P extends `${string}<${infer Name}>${infer Rest}`
  ? { readonly [K in Name]: string | number } & PartsOf<Rest>
  : unknown;

/**
 * The run-relative path of a RUN_FILES entry, its `<name>` parts filled (`/`-separated, a folder
 * without its trailing `/`): `runPath("modulePlan", { run_id })` is `plans/<run_id>_module_plan.json`.
 */
export function runPath<K extends RunFileKey>(
  key: K,
  ...parts: keyof PartsOf<(typeof RUN_FILES)[K]> extends never ? [] : [PartsOf<(typeof RUN_FILES)[K]>]
): string {
  const values = (parts[0] ?? {}) as Readonly<Record<string, string | number>>;
  const filled = RUN_FILES[key].replace(/<([a-z_]+)>/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new TypeError(`runPath(${key}): <${name}> not given`);
    return String(value);
  });
  return filled.endsWith("/") ? filled.slice(0, -1) : filled;
}

/**
 * The well-known top-level folders of a run (spec §2.3, §4.2 rule 4), in listing order: preflight's
 * outputs endpoint lists them first and says which exist.
 */
export const WELL_KNOWN_RUN_DIRS = [
  runPath("resultsDir"),
  runPath("thresholdsDir"),
  runPath("sealDir"),
  runPath("reproPackDir"),
] as const;
