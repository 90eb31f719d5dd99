import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { ANION_SMARTS } from "../../src/admet/bioavailability-score.ts";
import { BOILED_EGG } from "../../src/admet/boiled-egg.ts";
import { RULE_SETS } from "../../src/admet/drug-likeness-rules.ts";
import { METABOLISM_RULES } from "../../src/metabolism/metabolism-rules.ts";
import { NCI_5K } from "./nci-set.ts";

// Native RDKit's answers over NCI first_5K, stored under test/oracles/ instead of recomputed on
// every run (issue 41 item 4): the native QED pass alone took 33 CPU-s. Each stored file records a
// digest of every input that made it (the python script, the SMILES file, each argument file), so a
// test reading an answer whose script or limits changed fails, naming the regeneration command;
// `native-oracles.validation.test.ts` recomputes a sample natively so answers that drift from native
// RDKit itself fail too. Regenerate with `node packages/science/scripts/regenerate-native-oracles.ts`.

/** The command that rewrites every stored answer and the PROVENANCE table. */
export const REGENERATE_ORACLES = "node packages/science/scripts/regenerate-native-oracles.ts";

/** Where the stored answers and their PROVENANCE.md live. */
export const ORACLE_DIR = fileURLToPath(new URL("../oracles/", import.meta.url));
export const ORACLE_PROVENANCE = join(ORACLE_DIR, "PROVENANCE.md");
/** The script that writes the PROVENANCE table (its generated block's source). */
export const ORACLE_PROVENANCE_SOURCE = "packages/science/scripts/regenerate-native-oracles.ts";

/** Every n-th NCI molecule the three-family structural-alert comparison reads (NIBR is slow natively). */
export const ALERTS_EVERY = 4;
/** The NCI molecules the metabolism pairing comparison reads (the first that parse). */
export const REACTION_SITE_MOLECULES = 1000;

const dataFile = (name: string) => fileURLToPath(new URL(`../../data/${name}`, import.meta.url));

/** One native computation whose answers are stored. */
export interface NativeOracle {
  /** The stored file is `test/oracles/<name>.json.gz`. */
  readonly name: string;
  /** The script under `test/native/`; its first argument is the SMILES file. */
  readonly script: string;
  /**
   * The arguments after the SMILES file; files it needs are written into `dir`. `sample` is true when
   * the SMILES file is a sample of the stored molecules: a limit that picks molecules then takes all.
   */
  args(dir: string, sample: boolean): string[];
}

export const NATIVE_ORACLES = [
  { name: "qed", script: "qed.py", args: () => [] },
  { name: "murcko", script: "murcko.py", args: () => [] },
  { name: "sa-score", script: "sa-score.py", args: () => [] },
  { name: "manufacturability", script: "manufacturability.py", args: () => [] },
  {
    name: "admet-rules",
    script: "admet-rules.py",
    args: (dir) => [
      writeInput(
        dir,
        "spec.json",
        JSON.stringify({ rules: RULE_SETS, egg: BOILED_EGG, anion_smarts: ANION_SMARTS }),
      ),
    ],
  },
  { name: "salt-remover", script: "salt-remover.py", args: () => [dataFile("rdkit-salts.txt")] },
  {
    name: "reaction-sites",
    script: "reaction-sites.py",
    args: (dir, sample) => [
      writeInput(
        dir,
        "rules.json",
        JSON.stringify(METABOLISM_RULES.map(({ id, reaction }) => ({ id, reaction }))),
      ),
      String(sample ? Number.MAX_SAFE_INTEGER : REACTION_SITE_MOLECULES),
    ],
  },
  {
    name: "filter-catalog",
    script: "filter-catalog.py",
    args: (_dir, sample) => [dataFile("nibr-substructure-filters.csv"), String(sample ? 1 : ALERTS_EVERY)],
  },
  {
    name: "filter-catalog-brenk",
    script: "filter-catalog.py",
    args: () => [dataFile("nibr-substructure-filters.csv"), "1", "brenk"],
  },
] as const satisfies readonly NativeOracle[];

export type OracleName = (typeof NATIVE_ORACLES)[number]["name"];

/** A stored file: what made it and native's answer per NCI id. */
export interface StoredOracle<T> {
  readonly oracle: string;
  readonly script: string;
  /** sha256 over the script, the SMILES file and each argument (a file's bytes, else its text). */
  readonly inputs_sha256: string;
  /** The native toolkit that answered, e.g. "rdkit 2022.09.3". */
  readonly native: string;
  readonly answers: Readonly<Record<string, T>>;
}

function writeInput(dir: string, name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

export function oracleByName(name: OracleName): NativeOracle {
  const oracle = NATIVE_ORACLES.find((o) => o.name === name);
  if (oracle === undefined) throw new Error(`no native oracle ${name}`);
  return oracle;
}

export const oracleScript = (oracle: NativeOracle): string =>
  fileURLToPath(new URL(`../native/${oracle.script}`, import.meta.url));

export const oracleFile = (oracle: NativeOracle): string => join(ORACLE_DIR, `${oracle.name}.json.gz`);

/** The digest of what `oracle` reads: script, SMILES file and arguments (files by their bytes). */
export function oracleInputsSha256(
  oracle: NativeOracle,
  smilesFile: string,
  args: readonly string[],
): string {
  const hash = createHash("sha256");
  const part = (label: string, bytes: Buffer | string) => {
    hash.update(`${label}\0${Buffer.byteLength(bytes)}\0`);
    hash.update(bytes);
  };
  part("script", readFileSync(oracleScript(oracle)));
  part("smiles", readFileSync(smilesFile));
  for (const arg of args) part("arg", existsSync(arg) ? readFileSync(arg) : arg);
  return hash.digest("hex");
}

/** Calls `use` with a temporary folder for argument files, removed after. */
export function withArgsDir<T>(use: (dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), "svc-native-oracle-"));
  try {
    return use(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The inputs digest the stored answers of `oracle` must carry today. */
export function currentInputsSha256(oracle: NativeOracle): string {
  return withArgsDir((dir) => oracleInputsSha256(oracle, NCI_5K, oracle.args(dir, false)));
}

/** Reads a stored file as it is, without checking it is current. */
export function readStoredOracle<T>(oracle: NativeOracle): StoredOracle<T> {
  return JSON.parse(gunzipSync(readFileSync(oracleFile(oracle))).toString("utf8")) as StoredOracle<T>;
}

/**
 * Native RDKit's stored answers for `name`, after checking they were made from today's script, NCI
 * file and arguments: a stale file throws, naming the command that regenerates it.
 */
export function storedNative<T>(name: OracleName): Readonly<Record<string, T>> {
  const oracle = oracleByName(name);
  const stored = readStoredOracle<T>(oracle);
  assertOracleCurrent(oracle, stored.inputs_sha256, currentInputsSha256(oracle));
  return stored.answers;
}

/** Throws, naming the regeneration command, when stored answers were made from other inputs than today's. */
export function assertOracleCurrent(oracle: NativeOracle, stored: string, current: string): void {
  if (stored !== current)
    throw new Error(
      `test/oracles/${oracle.name}.json.gz was made from other inputs (${stored.slice(0, 12)}, ` +
        `now ${current.slice(0, 12)}): its script, the NCI file or an argument changed; run ${REGENERATE_ORACLES}`,
    );
}

/** The PROVENANCE table: one row per stored file, from the files as they are now. */
export function provenanceTable(): string {
  const rows = NATIVE_ORACLES.map((oracle) => {
    const bytes = readFileSync(oracleFile(oracle));
    const stored = readStoredOracle<unknown>(oracle);
    const args = withArgsDir((dir) =>
      oracle.args(dir, false).map((a) => (a.startsWith(dir) ? a.slice(dir.length + 1) : a)),
    );
    const shown = args.map((a) => (a.includes("/data/") ? `data/${a.split("/data/")[1]}` : a));
    return (
      `| \`${oracle.name}.json.gz\` | ${[stored.script, ...shown].map((a) => `\`${a}\``).join(" ")} | ` +
      `${Object.keys(stored.answers).length.toLocaleString("en-US")} | ${stored.native} | ${createHash("sha256").update(bytes).digest("hex")} |`
    );
  });
  return [
    "| file | script and arguments after the NCI file | molecules | native | sha256 |",
    "|---|---|---|---|---|",
    ...rows,
  ].join("\n");
}
