// Recomputes native RDKit's answers over NCI first_5K (Debian python3-rdkit, rdkit-data) and stores
// them as test/oracles/<name>.json.gz, then rewrites the sha256 table of test/oracles/PROVENANCE.md
// (issue 41 item 4: the comparisons read stored answers instead of running native RDKit every time).
// Each file records the digest of its inputs (script, SMILES file, arguments) so a test reading a
// stale one fails; gzip is deterministic (no name, mtime 0), so an unchanged answer gives the same bytes.
// Run: node packages/science/scripts/regenerate-native-oracles.ts [name …]   (all by default; ~3 CPU-min)
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { replaceGeneratedBlock } from "@svc/testing";
import {
  NATIVE_ORACLES,
  type NativeOracle,
  ORACLE_PROVENANCE,
  ORACLE_PROVENANCE_SOURCE,
  oracleFile,
  oracleInputsSha256,
  oracleScript,
  provenanceTable,
  type StoredOracle,
  withArgsDir,
} from "../test/support/native-oracles.ts";
import { NATIVE_PYTHON, NCI_5K } from "../test/support/native-rdkit.ts";

const nativeVersion = (): string =>
  `rdkit ${execFileSync(NATIVE_PYTHON, ["-c", "import rdkit; print(rdkit.__version__)"], { encoding: "utf8" }).trim()}`;

function regenerate(oracle: NativeOracle, native: string): void {
  const started = process.cpuUsage();
  const stored = withArgsDir((dir): StoredOracle<unknown> => {
    const args = oracle.args(dir, false);
    const out = execFileSync(NATIVE_PYTHON, [oracleScript(oracle), NCI_5K, ...args], {
      encoding: "utf8",
      maxBuffer: 512 * 1024 * 1024,
      stdio: ["ignore", "pipe", "inherit"],
    });
    return {
      oracle: oracle.name,
      script: `test/native/${oracle.script}`,
      inputs_sha256: oracleInputsSha256(oracle, NCI_5K, args),
      native,
      answers: JSON.parse(out) as Record<string, unknown>,
    };
  });
  writeFileSync(oracleFile(oracle), gzipSync(`${JSON.stringify(stored)}\n`, { level: 9 }));
  const cpu = process.cpuUsage(started);
  console.log(
    `${oracle.name}: ${Object.keys(stored.answers).length} molecules (this process ${((cpu.user + cpu.system) / 1e6).toFixed(1)} CPU-s, python's not counted)`,
  );
}

const wanted = process.argv.slice(2);
if (wanted.includes("-h") || wanted.includes("--help")) {
  console.log(`Usage: node packages/science/scripts/regenerate-native-oracles.ts [name …]
Recomputes native RDKit's answers (Debian python3-rdkit, rdkit-data) into test/oracles/<name>.json.gz and
rewrites the sha256 table of test/oracles/PROVENANCE.md. Names: ${NATIVE_ORACLES.map((o) => o.name).join(", ")}.`);
  process.exit(0);
}
const unknown = wanted.filter((name) => !NATIVE_ORACLES.some((o) => o.name === name));
if (unknown.length > 0) {
  console.error(
    `error: no native oracle ${unknown.join(", ")}; known: ${NATIVE_ORACLES.map((o) => o.name).join(", ")}`,
  );
  process.exit(2);
}
const native = nativeVersion();
for (const oracle of NATIVE_ORACLES)
  if (wanted.length === 0 || wanted.includes(oracle.name)) regenerate(oracle, native);
writeFileSync(
  ORACLE_PROVENANCE,
  replaceGeneratedBlock(
    readFileSync(ORACLE_PROVENANCE, "utf8"),
    "native-oracles",
    ORACLE_PROVENANCE_SOURCE,
    provenanceTable(),
  ),
);
console.log(`wrote ${ORACLE_PROVENANCE}`);
