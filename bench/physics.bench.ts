// Physics benchmark (issue 40): CPU per compound of each new module, and the bound the caps put on a run.
//   npm run bench -- physics [--compounds=N] [--poses=P]
// cns_penetration: in-process CPU (process.cpuUsage) per NCI first_5K compound after a warm-up of 20.
// quantum_target_audit (electronic) and physics_audit (strain, standard and deep search): CPU of the
// child programs (xtb, mopac, the RDKit conformer script; /proc/self/stat cutime + cstime) per docked
// pose of the runner's docking fixture and per crystal ligand of packages/science/data/complexes.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  auditLigandPhysics,
  CONFORMER_SEARCH,
  cnsPenetration,
  inOneThread,
  loadRDKit,
  PHYSICS_CAPS,
  prepareCompound,
} from "@svc/science";

const option = (name: string, fallback: number) =>
  Number(process.argv.find((arg) => arg.startsWith(`--${name}=`))?.split("=")[1] ?? fallback);
const compounds = option("compounds", 200);
const poses = option("poses", 3);
const NCI = "/usr/share/RDKit/Data/NCI/first_5K.smi";
const POSES = fileURLToPath(
  new URL("../packages/runner/test/fixtures/docking/results/poses/structure-0/", import.meta.url),
);
const COMPLEXES = fileURLToPath(new URL("../packages/science/data/complexes/", import.meta.url));

const rdkit = await loadRDKit();
const smiles = readFileSync(NCI, "utf8")
  .split("\n")
  .map((line) => line.split(/\s+/)[0] ?? "")
  .filter((s) => s !== "");
const run = inOneThread(cnsPenetration);
const prepared = smiles.slice(0, compounds + 20).map((s, index) =>
  prepareCompound(rdkit, {
    index,
    line: index + 2,
    candidateId: `NCI-${index}`,
    name: null,
    smiles: s,
    metadata: {},
  }),
);
for (const compound of prepared.slice(0, 20)) run.analyze(compound);
const before = process.cpuUsage();
for (const compound of prepared.slice(20)) run.analyze(compound);
const used = process.cpuUsage(before);
const cnsMs = (used.user + used.system) / 1000 / Math.max(1, prepared.length - 20);
console.log(
  `cns_penetration: ${cnsMs.toFixed(2)} ms CPU per compound over ${prepared.length - 20} NCI compounds (preparation excluded)`,
);

const work = mkdtempSync(join(tmpdir(), "svc-physics-bench-"));
try {
  const files = [
    ...readdirSync(POSES)
      .sort()
      .slice(0, poses)
      .map((name) => ({ label: `pose ${name}`, path: join(POSES, name) })),
    ...readdirSync(COMPLEXES)
      .sort()
      .slice(0, poses)
      .map((id) => ({ label: `crystal ${id}`, path: join(COMPLEXES, id, "ligand.sdf") })),
  ];
  const parts = [
    {
      name: "quantum_target_audit (electronic)",
      parts: "electronic",
      search: CONFORMER_SEARCH.standard,
      budget: PHYSICS_CAPS.electronic_cpu_budget_ms,
    },
    {
      name: "physics_audit (strain, standard search)",
      parts: "strain",
      search: CONFORMER_SEARCH.standard,
      budget: PHYSICS_CAPS.strain_cpu_budget_ms.standard,
    },
    {
      name: "physics_audit (strain, deep search)",
      parts: "strain",
      search: CONFORMER_SEARCH.deep,
      budget: PHYSICS_CAPS.strain_cpu_budget_ms.deep,
    },
  ] as const;
  for (const part of parts) {
    const cpu: number[] = [];
    for (const file of files) {
      const t0 = performance.now();
      const result = await auditLigandPhysics(file.path, {
        workDir: work,
        cpuBudgetMs: part.budget,
        parts: part.parts,
        search: part.search,
      });
      cpu.push(result.cpu_seconds);
      const heavy = result.status === "assessed" ? `${result.heavy_atoms} heavy atoms` : result.reason;
      console.log(
        `  ${part.name} ${file.label}: ${result.cpu_seconds} CPU-s, ${((performance.now() - t0) / 1000).toFixed(1)} s wall (${heavy})`,
      );
    }
    const mean = cpu.reduce((a, b) => a + b, 0) / cpu.length;
    console.log(
      `${part.name}: ${mean.toFixed(1)} CPU-s per compound (mean of ${cpu.length}), max ${Math.max(...cpu)}`,
    );
  }
  const cap = PHYSICS_CAPS.max_compounds_per_structure;
  console.log(
    `caps: at most ${cap} docked compounds per structure; per compound at most ${PHYSICS_CAPS.electronic_cpu_budget_ms / 1000} CPU-s ` +
      `(quantum_target_audit), ${PHYSICS_CAPS.strain_cpu_budget_ms.deep / 1000} CPU-s (physics_audit, deep only): ` +
      `a structure costs at most ${(cap * (PHYSICS_CAPS.electronic_cpu_budget_ms + PHYSICS_CAPS.strain_cpu_budget_ms.deep)) / 3_600_000} CPU-h for both`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
