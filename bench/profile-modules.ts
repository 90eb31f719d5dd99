// Where a worker's CPU goes (issue 10 item 1): on one thread, NCI first_5K.smi (Debian rdkit-data)
// through preparation and every module's `assess`, as a pool worker does them, with CPU time
// (process.cpuUsage, not wall time: the machine is shared) per step. Not a benchmark (no anchor,
// no goal) and not run by `npm run bench`: `node bench/profile-modules.ts [rows]` (default 1000).
import { readFileSync } from "node:fs";
import { IMPLEMENTED_MODULES, loadRDKit, prepareCompound, releaseParentMol } from "@svc/science";
import { toPortable, withRDKit } from "../packages/runner/src/pool/portable-compound.ts";

const NCI = "/usr/share/RDKit/Data/NCI/first_5K.smi";
const rows = Number(process.argv[2] ?? "1000");
const lines = readFileSync(NCI, "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .slice(0, rows);
const rdkit = await loadRDKit();
const cpuMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};
const spent = new Map<string, number>();
const timed = <T>(step: string, work: () => T): T => {
  const started = cpuMs();
  try {
    return work();
  } finally {
    spent.set(step, (spent.get(step) ?? 0) + cpuMs() - started);
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
for (const module of IMPLEMENTED_MODULES) module.assess?.(warm);
releaseParentMol();

let bytes = 0;
for (const [at, line] of lines.entries()) {
  const [smiles = "", id = ""] = line.split(/\s+/);
  const row = { index: at + 1, line: at + 1, candidateId: id, name: null, smiles, metadata: {} };
  const prepared = timed("prepare", () => prepareCompound(rdkit, row));
  const portable = timed("structured clone: prepared compound", () => structuredClone(toPortable(prepared)));
  bytes += JSON.stringify(portable).length;
  const compound = withRDKit(portable, rdkit);
  const values: Record<string, unknown> = {};
  for (const module of IMPLEMENTED_MODULES)
    values[module.id] = timed(`assess: ${module.id}`, () => module.assess?.(compound));
  releaseParentMol();
  timed("structured clone: assessments", () => structuredClone(values));
}
const total = [...spent.values()].reduce((sum, ms) => sum + ms, 0);
console.log(`${lines.length} NCI rows, one thread, CPU ms per compound:`);
for (const [step, ms] of [...spent].sort((a, b) => b[1] - a[1]))
  console.log(
    `${(ms / lines.length).toFixed(2).padStart(7)}  ${((100 * ms) / total).toFixed(1).padStart(5)}%  ${step}`,
  );
console.log(
  `${(total / lines.length).toFixed(2).padStart(7)}  total; a prepared compound posts ${(bytes / lines.length).toFixed(0)} B`,
);
