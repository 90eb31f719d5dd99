// Where a compound's CPU goes on svc-runner's whole per-compound path (issue 10 item 1, issue 42
// item 1): NCI first_5K.smi (Debian rdkit-data) on one thread, each step as the runner does it —
// the .smi reader, preparation, the prepared cache line and the structured clones across the pool's
// thread boundary, every module's `assess` (worker side) and `merge` (main thread), the raw/ and
// combined-output writes, the report's rows (ReportWriter.add) and the sha256 of what was written —
// with CPU time (process.cpuUsage, not wall time: the machine is shared) per step. Not a benchmark
// (no anchor, no goal); `npm run bench -- runner` prints its table, or on its own:
//   node bench/profile-modules.ts [rows=1000] [--json]
// One thread, so no pool scheduling or message passing cost beyond the clones themselves.
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type CompoundFinding, IMPLEMENTED_MODULES, loadRDKit, prepareCompound } from "@svc/science/modules";
import { releaseParentMol } from "@svc/science/parent";
import { readSmiPortfolio } from "../packages/runner/src/inputs/portfolio-smi.ts";
import { JsonArrayWriter } from "../packages/runner/src/outputs/json-array-writer.ts";
import { REPORT_DEFAULTS, ReportWriter } from "../packages/runner/src/outputs/report/index.ts";
import { toPortable, withRDKit } from "../packages/runner/src/pool/portable-compound.ts";
import { NCI } from "./runner-audit.ts";

const args = process.argv.slice(2);
const rows = Number(args.find((arg) => !arg.startsWith("--")) ?? "1000");
const asJson = args.includes("--json");
const root = mkdtempSync(join(tmpdir(), "svc-profile-modules-"));
const smi = join(root, "portfolio.smi");
writeFileSync(
  smi,
  `${readFileSync(NCI, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .slice(0, rows)
    .join("\n")}\n`,
);
const rdkit = await loadRDKit();
const cpuMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};
const spent = new Map<string, number>();
const charge = (step: string, ms: number) => spent.set(step, (spent.get(step) ?? 0) + ms);
const timed = <T>(step: string, work: () => T): T => {
  const started = cpuMs();
  try {
    return work();
  } finally {
    charge(step, cpuMs() - started);
  }
};
const timedAsync = async <T>(step: string, work: () => Promise<T>): Promise<T> => {
  const started = cpuMs();
  try {
    return await work();
  } finally {
    charge(step, cpuMs() - started);
  }
};

// Warm-up as a worker does before it reports ready (catalog compilation is not per compound).
const warm = prepareCompound(rdkit, {
  index: 0,
  line: 0,
  candidateId: "warm-up",
  name: null,
  smiles: "CC(=O)Oc1ccccc1C(=O)[O-].[Na+]",
  metadata: {},
});
for (const module of IMPLEMENTED_MODULES) module.assess(warm);
releaseParentMol();

const runs = IMPLEMENTED_MODULES.map((module) => ({ module, run: module.createRun() }));
const raws = await Promise.all(
  IMPLEMENTED_MODULES.map((module) =>
    JsonArrayWriter.open(join(root, "raw", `${module.id}_raw.json`), { module_id: module.id }, [
      "result",
      "compounds",
    ]),
  ),
);
const combined = await JsonArrayWriter.open(join(root, "combined.json"), { schema: "bench" }, ["compounds"]);
const report = await ReportWriter.open({
  runDir: join(root, "run"),
  options: REPORT_DEFAULTS,
  reasons: new Map(),
  chemistry: null,
  targetsPath: null,
  scratchDir: join(root, "report"),
});

let bytes = 0;
let done = 0;
const records = readSmiPortfolio(smi);
for (;;) {
  const next = await timedAsync("parse (.smi reader)", () => records.next());
  if (next.done) break;
  const source = next.value;
  const row = {
    index: done + 1,
    line: source.line,
    candidateId: source.id ?? `row-${source.line}`,
    name: source.name,
    smiles: source.smiles,
    metadata: source.metadata,
  };
  const prepared = timed("prepare", () => prepareCompound(rdkit, row));
  // Worker → main (validation), the prepared cache line, main → worker (analysis).
  const portable = timed("clone: prepared compound, both ways", () =>
    structuredClone(structuredClone(toPortable(prepared))),
  );
  const cached = timed("prepared cache line (JSON)", () => {
    const line = JSON.stringify({ compound: portable });
    bytes += line.length;
    return (JSON.parse(line) as { compound: typeof portable }).compound;
  });
  const compound = withRDKit(cached, rdkit);
  const values: Record<string, unknown> = {};
  if (compound.ok)
    for (const { module } of runs)
      values[module.id] = timed(`assess: ${module.id}`, () => module.assess(compound));
  releaseParentMol();
  const assessments = timed("clone: assessments", () => structuredClone(values));
  const findings = new Map<string, CompoundFinding>();
  const findingsJson: string[] = [];
  for (const [at, { module, run }] of runs.entries()) {
    const finding = timed("merge (every module)", () =>
      run.merge(compound.ok ? assessments[module.id] : module.assess(compound), findings),
    );
    findings.set(module.id, finding);
    // As run-modules.ts: each finding stringified once, for raw/ and the combined record.
    await timedAsync("raw/ writes", () => {
      const json = JSON.stringify(finding);
      findingsJson.push(`${JSON.stringify(module.id)}:${json}`);
      return (raws[at] as JsonArrayWriter).pushJson(json);
    });
  }
  await timedAsync("combined outputs record", () =>
    combined.pushJson(
      `${JSON.stringify({ candidate_id: row.candidateId }).slice(0, -1)},"findings":{${findingsJson.join(",")}}}`,
    ),
  );
  await timedAsync("report rows (ReportWriter.add)", () => report.add(compound, findings));
  done++;
}
await timedAsync("raw/ writes", async () => {
  for (const [at, raw] of raws.entries())
    await raw.close([{ summary: (runs[at] as (typeof runs)[number]).run.finish() }]);
});
await timedAsync("combined outputs record", () => combined.close());
timed("sha256 of raw/ and combined", () => {
  for (const module of IMPLEMENTED_MODULES)
    createHash("sha256")
      .update(readFileSync(join(root, "raw", `${module.id}_raw.json`)))
      .digest("hex");
  createHash("sha256")
    .update(readFileSync(join(root, "combined.json")))
    .digest("hex");
});
await report.dispose();
rmSync(root, { recursive: true, force: true });

const total = [...spent.values()].reduce((sum, ms) => sum + ms, 0);
const table = [...spent].sort((a, b) => b[1] - a[1]).map(([step, ms]) => ({ step, ms: ms / done }));
if (asJson) process.stdout.write(`${JSON.stringify({ rows: done, total: total / done, table })}\n`);
else {
  console.log(`${done} NCI rows, one thread, CPU ms per compound:`);
  for (const { step, ms } of table)
    console.log(
      `${ms.toFixed(2).padStart(7)}  ${((100 * ms * done) / total).toFixed(1).padStart(5)}%  ${step}`,
    );
  console.log(
    `${(total / done).toFixed(2).padStart(7)}  total; a prepared cache line is ${(bytes / done).toFixed(0)} B`,
  );
}
