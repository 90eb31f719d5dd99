// Byte-for-byte guard of the ligand hot path (issue 42 item 2): every module's per-compound
// findings of an svc-runner audit of the first 1,000 NCI first_5K.smi rows (Debian rdkit-data),
// reduced to one sha256 per module and compared with bench/findings-digest.json, which holds the
// digests captured from the code before the throughput work (as the defineModule change compared
// its findings before and after every step). Also the combined outputs' per-compound records and
// the report's CSV. Not a unit test (about a minute of CPU on 2 workers):
//   node bench/findings-digest.ts            compare with the stored digests (exit 1 on a difference)
//   node bench/findings-digest.ts --write    store this code's digests (only for a deliberate change)
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { startTestEntitlement } from "../packages/runner/test/support/entitlement-harness.ts";
import { auditNci, NCI, nciRows } from "./runner-audit.ts";

const ROWS = 1000;
const STORED = new URL("./findings-digest.json", import.meta.url).pathname;

if (!existsSync(NCI)) {
  console.log(`needs ${NCI}: apt-get install rdkit-data python3-rdkit`);
  process.exit(1);
}

/** Every file under `dir`, relative paths. */
function walk(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name), base) : [relative(base, join(dir, entry.name))],
  );
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/**
 * One digest per module (its raw file's `compounds`: the per-compound findings, without the file's
 * run-specific header), plus the combined outputs' per-compound records and the report CSV's rows.
 */
export function digestRun(runDir: string): Record<string, string> {
  const digests: Record<string, string> = {};
  const files = walk(runDir);
  for (const file of files.filter((name) => name.endsWith("_raw.json")).sort()) {
    const raw = JSON.parse(readFileSync(join(runDir, file), "utf8")) as {
      module_id?: string;
      result?: { compounds?: unknown } | null;
    };
    const compounds = raw.result?.compounds;
    if (!Array.isArray(compounds)) continue; // not a per-compound module (or not executed)
    digests[`module ${raw.module_id}`] = sha256(JSON.stringify(compounds));
  }
  const combined = files.find((name) => name.endsWith("combined_unified_computational_outputs.json"));
  if (combined !== undefined) {
    const records = JSON.parse(readFileSync(join(runDir, combined), "utf8")) as { compounds: unknown };
    digests["combined compounds"] = sha256(JSON.stringify(records.compounds));
  }
  const csv = files.find((name) => name.endsWith("report.csv"));
  if (csv !== undefined) digests["report.csv"] = sha256(readFileSync(join(runDir, csv), "utf8"));
  return digests;
}

const root = mkdtempSync(join(tmpdir(), "svc-findings-digest-"));
const service = await startTestEntitlement();
try {
  await service.grant("digest@example.com", 2);
  const token = await service.tokenFor("digest@example.com", 3600);
  const run = await auditNci({ root, service, token, rows: ROWS }, nciRows());
  const digests = digestRun(run.runDir);
  if (Object.keys(digests).filter((key) => key.startsWith("module ")).length === 0)
    throw new Error("the run wrote no per-compound module findings");
  if (process.argv.includes("--write")) {
    writeFileSync(STORED, `${JSON.stringify({ rows: ROWS, source: NCI, digests }, null, 2)}\n`);
    console.log(`wrote ${Object.keys(digests).length} digests of ${ROWS} NCI rows to ${STORED}`);
  } else {
    const stored = (JSON.parse(readFileSync(STORED, "utf8")) as { digests: Record<string, string> }).digests;
    const keys = [...new Set([...Object.keys(stored), ...Object.keys(digests)])].sort();
    let differ = 0;
    for (const key of keys) {
      const same = stored[key] === digests[key];
      if (!same) differ++;
      console.log(`${same ? "same   " : "DIFFERS"}  ${key}`);
    }
    console.log(`${keys.length - differ} of ${keys.length} identical on ${ROWS} NCI rows`);
    process.exitCode = differ === 0 ? 0 : 1;
  }
} finally {
  await service.close();
  rmSync(root, { recursive: true, force: true });
}
