// Docking benchmark (issue 25, "Performance"): compounds per minute through @svc/science's
// DockingEngine (Vina 1.2.3 + pose conversion to SDF + pose checks) against the `vina` CLI run
// directly on the same receptor and ligand PDBQT files, box, seed and exhaustiveness, in the same run,
// one Vina thread per compound and as many compounds at once as there are cores. The receptor (the
// PoseBusters 1s3v fixture) is prepared once and asked for again (a cache hit); the ligands are NCI
// first_5K molecules of 10–30 heavy atoms (Debian rdkit-data), prepared once for both sides (their
// preparation is timed apart). Peak RSS of this process (the engine's side) is read after 20 docked
// compounds and after all of them.
//   npm run bench -- docking [--compounds=N]     N = 20 by default; --compounds=200 for the RSS claim
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import {
  createLigandPreparer,
  createReceptorPreparer,
  createVinaDockingEngine,
  type DockingResult,
  type PreparedLigandOk,
  parseSdf,
  pocketBoxFromLigand,
  removeDockingFolder,
  vinaDockingArgs,
  withoutHydrogens,
} from "@svc/science";

const NCI = "/usr/share/RDKit/Data/NCI/first_5K.smi";
const FIXTURES = new URL("../packages/science/test/fixtures/posebusters/1s3v/", import.meta.url);
const count = Number(process.argv.find((arg) => arg.startsWith("--compounds="))?.split("=")[1] ?? 20);
const lanes = availableParallelism();
const SEED = 42;

const work = mkdtempSync(join(tmpdir(), "svc-docking-bench-"));
try {
  const preparer = createReceptorPreparer({ cacheDir: join(work, "receptors") });
  const receptorPath = new URL("1s3v_protein_one_lig_removed.pdb", FIXTURES).pathname;
  let t0 = performance.now();
  const receptor = await preparer.prepare(receptorPath);
  const prepSeconds = (performance.now() - t0) / 1000;
  t0 = performance.now();
  const again = await preparer.prepare(receptorPath);
  const cachedMs = performance.now() - t0;
  console.log(
    `receptor 1s3v prepared once in ${prepSeconds.toFixed(1)} s; asked again: fromCache=${again.fromCache} in ${cachedMs.toFixed(1)} ms`,
  );
  const crystal = parseSdf(readFileSync(new URL("1s3v_ligand.sdf", FIXTURES), "utf8"))[0];
  if (!crystal) throw new Error("no crystal ligand");
  const box = pocketBoxFromLigand(withoutHydrogens(crystal).atoms.map((atom) => atom.position));

  const ligandPreparer = createLigandPreparer({ workDir: join(work, "ligands") });
  const candidates = readFileSync(NCI, "utf8")
    .split("\n")
    .map((line) => line.split(/\s+/)[0] ?? "")
    .filter(
      (smiles) =>
        smiles !== "" && !smiles.includes(".") && /^[BCNOSFIclr()[\]=#@+\-\\/0-9Hnos]+$/.test(smiles),
    );
  const ligands: PreparedLigandOk[] = [];
  t0 = performance.now();
  for (const [index, smiles] of candidates.entries()) {
    if (ligands.length >= count) break;
    const heavy = smiles
      .replace(/\[[^\]]*\]/g, "X")
      .replace(/Cl|Br/g, "X")
      .replace(/[^A-Za-z]/g, "")
      .replace(/H/g, "").length;
    if (heavy < 10 || heavy > 30) continue;
    const prepared = await ligandPreparer.prepare({ id: `NCI-${index}`, smiles });
    if (prepared.status === "prepared") ligands.push(prepared);
  }
  console.log(
    `${ligands.length} ligands prepared in ${((performance.now() - t0) / 1000).toFixed(1)} s (not in the ratio)`,
  );

  const settings = { seed: SEED, exhaustiveness: 8, numModes: 9, cpu: 1 };
  const runLanes = async (task: (ligand: PreparedLigandOk, index: number) => Promise<void>) => {
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: lanes }, async () => {
        while (next < ligands.length) {
          const index = next++;
          await task(ligands[index] as PreparedLigandOk, index);
        }
      }),
    );
    return (performance.now() - started) / 60_000;
  };

  // Anchor: vina as a person runs it, the same argument vector, output discarded after.
  const anchorScores: number[] = [];
  const anchorMinutes = await runLanes(
    (ligand, index) =>
      new Promise((resolve, reject) => {
        const out = join(work, `anchor-${index}.pdbqt`);
        const child = spawn(
          "vina",
          vinaDockingArgs(receptor.pdbqtPath, ligand.pdbqtPath, box, settings, out),
          {
            stdio: "ignore",
          },
        );
        child.on("error", reject);
        child.on("close", () => {
          anchorScores[index] = Number(/REMARK VINA RESULT:\s+(\S+)/.exec(readFileSync(out, "utf8"))?.[1]);
          rmSync(out, { force: true });
          resolve();
        });
      }),
  );

  const engine = createVinaDockingEngine({ workDir: join(work, "docking"), seed: SEED, cpu: 1 });
  const results: DockingResult[] = [];
  let rssAt20: number | null = null;
  let done = 0;
  const oursMinutes = await runLanes(async (ligand, index) => {
    const result = await engine.dock({ ligand, receptor, box });
    results[index] = result.status === "docked" ? { ...result, topPoseSdf: "" } : result;
    if (result.status === "docked") await removeDockingFolder(result);
    done++;
    if (done === Math.min(20, ligands.length)) rssAt20 = process.resourceUsage().maxRSS;
  });
  const rssEnd = process.resourceUsage().maxRSS;

  const docked = results.filter((result) => result.status === "docked");
  const maxDelta = Math.max(
    ...results.map((result, index) =>
      result.status === "docked" ? Math.abs(result.score - (anchorScores[index] ?? Number.NaN)) : 0,
    ),
  );
  const ours = ligands.length / oursMinutes;
  const anchor = ligands.length / anchorMinutes;
  console.log(`vina CLI directly: ${anchor.toFixed(2)} compounds/min (${lanes} at once, 1 thread each)`);
  console.log(
    `DockingEngine:     ${ours.toFixed(2)} compounds/min (${docked.length}/${ligands.length} docked; includes pose SDF + checks)`,
  );
  console.log(
    `ratio ours / vina CLI: ${(ours / anchor).toFixed(3)} (target ≥ 0.95); largest score difference ${maxDelta.toFixed(3)} kcal/mol`,
  );
  console.log(
    `peak RSS of this process: ${((rssAt20 ?? rssEnd) / 1024).toFixed(0)} MiB after ${Math.min(20, ligands.length)} compounds, ${(rssEnd / 1024).toFixed(0)} MiB after ${ligands.length}`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
