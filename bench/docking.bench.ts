// Docking benchmark (issue 25, "Performance"): compounds per minute through @svc/science's
// DockingEngine (Vina 1.2.3 + pose conversion to SDF + pose checks) against the `vina` CLI run
// directly on the same receptor and ligand PDBQT files, box, seed and exhaustiveness, in the same run,
// one Vina thread per compound and as many compounds at once as there are cores. The receptor (the
// PoseBusters 1s3v fixture) is prepared once and asked for again (a cache hit); the ligands are NCI
// first_5K molecules of 10–30 heavy atoms (Debian rdkit-data), prepared once for both sides (their
// preparation is timed apart).
// Memory (ARCHITECTURE.md rule 12, issue 25 "peak RSS flat from 20 to 200"): after the ratio run the
// engine alone docks M compounds (the same NCI pick, extended), and the peak RSS of this process (the
// engine's side; Vina runs in child processes) is read after 20 and after M. On this 2-core machine
// 200 compounds at the standard exhaustiveness 8 would take hours, so the scaling run searches at
// exhaustiveness 1 in a 10 Å cube on the same centre (same receptor, same engine path: Vina, pose
// conversion, checks, clean-up): memory per compound in this process does not depend on the search
// effort or the box, only time does. Its output says so.
//   npm run bench -- docking [--compounds=N] [--scale-to=M] [--scale-exhaustiveness=E] [--scale-box=B]
//   N = 20 (ratio run, exhaustiveness 8), M = 200 (0 skips the scaling run), E = 1, B = 10 Å (0: the ratio box)
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
  pocketBoxFromCenterSize,
  pocketBoxFromLigand,
  removeDockingFolder,
  vinaDockingArgs,
  withoutHydrogens,
} from "@svc/science";

const NCI = "/usr/share/RDKit/Data/NCI/first_5K.smi";
const FIXTURES = new URL("../packages/science/test/fixtures/posebusters/1s3v/", import.meta.url);
const option = (name: string, fallback: number) =>
  Number(process.argv.find((arg) => arg.startsWith(`--${name}=`))?.split("=")[1] ?? fallback);
const count = option("compounds", 20);
const scaleTo = option("scale-to", 200);
const scaleExhaustiveness = option("scale-exhaustiveness", 1);
const scaleBox = option("scale-box", 10);
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
    if (ligands.length >= Math.max(count, scaleTo)) break;
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
  const ratioLigands = ligands.slice(0, count);
  const runLanes = async (
    task: (ligand: PreparedLigandOk, index: number) => Promise<void>,
    batch: readonly PreparedLigandOk[] = ratioLigands,
  ) => {
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: lanes }, async () => {
        while (next < batch.length) {
          const index = next++;
          await task(batch[index] as PreparedLigandOk, index);
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
  const oursMinutes = await runLanes(async (ligand, index) => {
    const result = await engine.dock({ ligand, receptor, box });
    results[index] = result.status === "docked" ? { ...result, topPoseSdf: "" } : result;
    if (result.status === "docked") await removeDockingFolder(result);
  });

  const docked = results.filter((result) => result.status === "docked");
  const maxDelta = Math.max(
    ...results.map((result, index) =>
      result.status === "docked" ? Math.abs(result.score - (anchorScores[index] ?? Number.NaN)) : 0,
    ),
  );
  const ours = ratioLigands.length / oursMinutes;
  const anchor = ratioLigands.length / anchorMinutes;
  console.log(`vina CLI directly: ${anchor.toFixed(2)} compounds/min (${lanes} at once, 1 thread each)`);
  console.log(
    `DockingEngine:     ${ours.toFixed(2)} compounds/min (${docked.length}/${ratioLigands.length} docked; includes pose SDF + checks)`,
  );
  console.log(
    `ratio ours / vina CLI: ${(ours / anchor).toFixed(3)} (target ≥ 0.95); largest score difference ${maxDelta.toFixed(3)} kcal/mol`,
  );

  if (scaleTo > 0) {
    // Memory scaling: the engine alone, results reduced to their scores as a caller keeps them.
    const scaling = createVinaDockingEngine({
      workDir: join(work, "scaling"),
      seed: SEED,
      cpu: 1,
      exhaustiveness: scaleExhaustiveness,
    });
    const batch = ligands.slice(0, scaleTo);
    const scalingBox =
      scaleBox > 0 ? pocketBoxFromCenterSize(box.center, [scaleBox, scaleBox, scaleBox]) : box;
    const scores: (number | null)[] = [];
    let rssAt20: number | null = null;
    let done = 0;
    const minutes = await runLanes(async (ligand, index) => {
      const result = await scaling.dock({ ligand, receptor, box: scalingBox });
      scores[index] = result.status === "docked" ? result.score : null;
      if (result.status === "docked") await removeDockingFolder(result);
      done++;
      if (done === Math.min(20, batch.length)) rssAt20 = process.resourceUsage().maxRSS;
    }, batch);
    const rssEnd = process.resourceUsage().maxRSS;
    const mib = (kib: number) => (kib / 1024).toFixed(0);
    console.log(
      `scaling run (exhaustiveness ${scaleExhaustiveness}, box ${scalingBox.size.join(" × ")} Å, not the ratio run's: ` +
        "memory per compound does not depend on them): " +
        `${scores.filter((score) => score !== null).length}/${batch.length} docked in ${minutes.toFixed(1)} min`,
    );
    console.log(
      `peak RSS of this process: ${mib(rssAt20 ?? rssEnd)} MiB after ${Math.min(20, batch.length)} compounds, ` +
        `${mib(rssEnd)} MiB after ${batch.length} (growth ${(((rssEnd - (rssAt20 ?? rssEnd)) / (rssAt20 ?? rssEnd)) * 100).toFixed(1)}%)`,
    );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
