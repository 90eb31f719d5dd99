// Physics benchmark (issue 40): CPU per compound of each new module, and the bound the caps put on a run.
//   npm run bench -- physics [--compounds=N] [--poses=P] [--only=physics_binding]
// cns_penetration: in-process CPU (process.cpuUsage) per NCI first_5K compound after a warm-up of 20.
// quantum_target_audit (electronic) and physics_audit (strain, standard and deep search): CPU of the
// child programs (xtb, mopac, the RDKit conformer script; /proc/self/stat cutime + cstime) per docked
// pose of the runner's docking fixture and per crystal ligand of packages/science/data/complexes.
// physics_binding (MM-GBSA): CPU of mmgbsa.py (/proc/<pid>/stat, the whole process: start-up, receptor
// load, ligand set-up, minimisation, three energies) per docked pose of the docking fixture in its
// receptor (1S3V, PDBFixer as docking prepares it), and the receptor's ff14SB parameterisation once.
// interaction_stability (short MD): CPU of md_stability.py (the whole process, one OpenMM thread) per
// docked pose of the fixture at the module's production length, with the script's per-phase CPU.
// qmmm_analysis (GFN2 QM cluster): CPU of qm_cluster_atoms.py and the three xtb single points per docked
// pose of the docking fixture, in the same ff14SB receptor.
// --only=<text> runs the xtb modules whose name holds it (physics_binding, qmmm_analysis: none of them).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { cnsPenetration } from "@svc/science/cns";
import { inOneThread, loadRDKit, prepareCompound } from "@svc/science/modules";
import {
  auditLigandPhysics,
  CONFORMER_SEARCH,
  MD_STABILITY_CAPS,
  MD_STABILITY_SETTINGS,
  MM_GBSA_CAPS,
  PHYSICS_CAPS,
  prepareMmGbsaReceptor,
  QM_CLUSTER_CAPS,
  scoreMmGbsa,
  scoreQmCluster,
  simulatePoseStability,
} from "@svc/science/physics";
import { createReceptorPreparer } from "@svc/science/structure";

const option = (name: string, fallback: number) =>
  Number(process.argv.find((arg) => arg.startsWith(`--${name}=`))?.split("=")[1] ?? fallback);
const compounds = option("compounds", 200);
const poses = option("poses", 3);
const only = process.argv.find((arg) => arg.startsWith("--only="))?.split("=")[1] ?? "";
const NCI = "/usr/share/RDKit/Data/NCI/first_5K.smi";
const POSES = fileURLToPath(
  new URL("../packages/runner/test/fixtures/docking/results/poses/structure-0/", import.meta.url),
);
const COMPLEXES = fileURLToPath(new URL("../packages/science/data/complexes/", import.meta.url));
const FIXTURE_RECEPTOR = fileURLToPath(
  new URL("../examples/structure-demo/01_sources/1s3v_protein_one_lig_removed.pdb", import.meta.url),
);

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
  for (const part of parts.filter((entry) => entry.name.includes(only))) {
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
  const load = () => loadavg()[0]?.toFixed(1);
  const receptorPdb = await createReceptorPreparer({ cacheDir: join(work, "receptor") }).prepare(
    FIXTURE_RECEPTOR,
  );
  const receptor = await prepareMmGbsaReceptor(receptorPdb.pdbPath, join(work, "mm-gbsa"));
  if (receptor.status !== "prepared") throw new Error(`physics_binding receptor: ${receptor.reason}`);
  console.log(
    `  physics_binding receptor 1s3v (${receptor.atoms} atoms, ff14SB): ${receptor.cpu_seconds} CPU-s (load ${load()})`,
  );
  const mmgbsa: number[] = [];
  for (const name of readdirSync(POSES).sort().slice(0, poses)) {
    const [score] = await scoreMmGbsa(receptor, [join(POSES, name)]);
    if (score === undefined) continue;
    mmgbsa.push(score.cpu_seconds);
    const what =
      score.status === "assessed"
        ? `${score.score_kcal_mol} kcal/mol, ${score.pocket_atoms} pocket atoms`
        : score.reason;
    console.log(`  physics_binding pose ${name}: ${score.cpu_seconds} CPU-s (${what}; load ${load()})`);
  }
  const mean = mmgbsa.reduce((a, b) => a + b, 0) / Math.max(1, mmgbsa.length);
  console.log(
    `physics_binding: ${mean.toFixed(1)} CPU-s per compound (mean of ${mmgbsa.length}), max ${Math.max(...mmgbsa)}; ` +
      `caps: at most ${MM_GBSA_CAPS.max_compounds_per_structure} per structure, ${MM_GBSA_CAPS.ligand_cpu_budget_ms / 1000} CPU-s each, ` +
      `${MM_GBSA_CAPS.receptor_cpu_budget_ms / 1000} CPU-s for the receptor`,
  );
  const md: number[] = [];
  const rdkit = await loadRDKit();
  for (const name of readdirSync(POSES).sort().slice(0, poses)) {
    const result = await simulatePoseStability(receptor, join(POSES, name), {
      workDir: join(work, "md", name),
      rdkit,
      threads: 1,
    });
    md.push(result.cpu_seconds);
    const what =
      result.status === "assessed"
        ? `${result.system.atoms} atoms, mean RMSD ${result.rmsd.mean_angstrom} Å, phases ${JSON.stringify(result.phase_cpu_seconds)}`
        : result.reason;
    console.log(
      `  interaction_stability pose ${name}: ${result.cpu_seconds} CPU-s (${what}; load ${load()})`,
    );
  }
  const mdMean = md.reduce((a, b) => a + b, 0) / Math.max(1, md.length);
  console.log(
    `interaction_stability: ${mdMean.toFixed(1)} CPU-s per compound at ${MD_STABILITY_SETTINGS.production_ps} ps (mean of ${md.length}), ` +
      `max ${Math.max(...md)}; caps: at most ${MD_STABILITY_CAPS.max_compounds_per_structure} per structure, ` +
      `${MD_STABILITY_CAPS.compound_cpu_budget_ms / 1000} CPU-s each`,
  );
  const cluster: number[] = [];
  for (const name of readdirSync(POSES).sort().slice(0, poses)) {
    const score = await scoreQmCluster(receptor, join(POSES, name), join(work, "qm-cluster"));
    cluster.push(score.cpu_seconds);
    const what =
      score.status === "assessed"
        ? `${score.interaction_energy_kcal_mol} kcal/mol, ${score.cluster_atoms} cluster atoms`
        : score.reason;
    console.log(`  qmmm_analysis pose ${name}: ${score.cpu_seconds} CPU-s (${what}; load ${load()})`);
  }
  console.log(
    `qmmm_analysis: ${(cluster.reduce((a, b) => a + b, 0) / Math.max(1, cluster.length)).toFixed(1)} CPU-s per compound ` +
      `(mean of ${cluster.length}), max ${Math.max(...cluster)}; caps: at most ${QM_CLUSTER_CAPS.max_compounds_per_structure} ` +
      `per structure, ${QM_CLUSTER_CAPS.compound_cpu_budget_ms / 1000} CPU-s and ${QM_CLUSTER_CAPS.max_cluster_atoms} cluster atoms each`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
