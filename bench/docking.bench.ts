// Docking benchmark (issue 25 "Performance", issue 39 items 2, 3 and 5): in one run, on the same N
// compounds (NCI first_5K molecules of 9–40 heavy atoms, Debian rdkit-data, prepared once for every
// side, their preparation timed apart), the PoseBusters 1s3v receptor and box, seed 42 and Vina's
// standard exhaustiveness 8:
//   1. the `vina` CLI as a person runs it, one compound at a time, `--cpu 1` (the single-CLI rate);
//   2. the `vina` CLI with `--cpu <cores>`, one compound at a time, on the first few compounds: is one
//      process with all threads faster than one process per core? (same poses: Vina seeds per run);
//   3. the DockingEngine behind the runner's pool: one compound per call, <cores> calls at once;
//   4. the same with the receptor's maps reused: chunks of DOCKING_CHUNK compounds, one
//      `vina --batch` each, <cores> chunks at once (what the structure stage runs).
// Each line gives compounds/min (wall), CPU seconds per compound (this process and every child it
// waited for, from /proc: a loaded machine slows the wall clock, not the CPU a compound needs), the
// 1-minute load average, and the ratio to `cores ×` the single-CLI rate; scores are compared
// compound by compound. On a shared machine the wall-clock ratios say little unless the load is
// below the core count: the CPU ratios are the ones to read there.
// Memory (ARCHITECTURE.md rule 12): then the pooled batch path alone docks M compounds, and the peak
// RSS of this process (the engine's side; Vina runs in child processes) is read after 20 and after M.
// M defaults to 100, not 200: on this 2-core machine shared with other work, 200 compounds of the
// scaling run take over half an hour; memory in this process is bounded by the compounds in work
// (cores × chunk), not by how many were docked, and 100 is five chunks-in-work past the first 20.
// The scaling run searches at exhaustiveness 1 in a 10 Å cube on the same centre (same receptor, same
// pool, batch, pose conversion, checks and clean-up): memory per compound in this process does not
// depend on the search effort or the box, only time does. Its output says so.
//   npm run bench -- docking [--compounds=N] [--scale-to=M] [--scale-exhaustiveness=E] [--scale-box=B] [--threads-compounds=T]
//   N = 20, M = 100 (0 skips the scaling run), E = 1, B = 10 Å (0: the ratio box), T = 4 (0 skips step 2)
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { DOCKING_CHUNK } from "@svc/runner";
import {
  createLigandPreparer,
  createReceptorPreparer,
  createVinaDockingEngine,
  type DockingRequest,
  type DockingResult,
  type PreparedLigandOk,
  parseSdf,
  pocketBoxFromCenterSize,
  pocketBoxFromLigand,
  removeDockingFolder,
  vinaDockingArgs,
  withoutHydrogens,
} from "@svc/science/structure";
import { treeCpuMs } from "./process-cpu.ts";

const NCI = "/usr/share/RDKit/Data/NCI/first_5K.smi";
const FIXTURES = new URL("../packages/science/test/fixtures/posebusters/1s3v/", import.meta.url);
const option = (name: string, fallback: number) =>
  Number(process.argv.find((arg) => arg.startsWith(`--${name}=`))?.split("=")[1] ?? fallback);
const count = option("compounds", 20);
const scaleTo = option("scale-to", 100);
const scaleExhaustiveness = option("scale-exhaustiveness", 1);
const scaleBox = option("scale-box", 10);
const threadsCompounds = option("threads-compounds", 4);
const cores = availableParallelism();
const SEED = 42;
const load = () => `load ${loadavg()[0]?.toFixed(2)} on ${cores} cores`;
/** CPU ms of this process and every child it has waited for (vina, obabel, python). */
const cpuMs = () => treeCpuMs(process.pid) ?? Number.NaN;

const work = mkdtempSync(join(tmpdir(), "svc-docking-bench-"));
try {
  const preparer = createReceptorPreparer({ cacheDir: join(work, "receptors") });
  const receptorPath = new URL("1s3v_protein_one_lig_removed.pdb", FIXTURES).pathname;
  let t0 = performance.now();
  const receptor = await preparer.prepare(receptorPath);
  const prepSeconds = (performance.now() - t0) / 1000;
  t0 = performance.now();
  const again = await preparer.prepare(receptorPath);
  console.log(
    `receptor 1s3v prepared once in ${prepSeconds.toFixed(1)} s; asked again: fromCache=${again.fromCache} in ${(performance.now() - t0).toFixed(1)} ms`,
  );
  const crystal = parseSdf(readFileSync(new URL("1s3v_ligand.sdf", FIXTURES), "utf8"))[0];
  if (!crystal) throw new Error("no crystal ligand");
  const box = pocketBoxFromLigand(withoutHydrogens(crystal).atoms.map((atom) => atom.position));

  const ligandPreparer = createLigandPreparer({ workDir: join(work, "ligands") });
  const candidates = readFileSync(NCI, "utf8")
    .split("\n")
    .map((line) => line.split(/\s+/)[0] ?? "")
    .filter((smiles) => smiles !== "" && !smiles.includes("."));
  const ligands: PreparedLigandOk[] = [];
  t0 = performance.now();
  for (const [index, smiles] of candidates.entries()) {
    if (ligands.length >= Math.max(count, scaleTo)) break;
    const prepared = await ligandPreparer.prepare({ id: `NCI-${index}`, smiles });
    if (prepared.status === "prepared" && prepared.heavyAtoms >= 9 && prepared.heavyAtoms <= 40)
      ligands.push(prepared);
  }
  const ratioLigands = ligands.slice(0, count);
  const heavy = ratioLigands.map((ligand) => ligand.heavyAtoms);
  console.log(
    `${ligands.length} ligands prepared in ${((performance.now() - t0) / 1000).toFixed(1)} s (not in the ratio); ` +
      `the ${ratioLigands.length} of the ratio have ${Math.min(...heavy)}–${Math.max(...heavy)} heavy atoms`,
  );

  /** Runs `task` over `items` with `lanes` at once; wall minutes and CPU seconds of the whole. */
  const measure = async <T>(
    items: readonly T[],
    lanes: number,
    task: (item: T, index: number) => Promise<void>,
  ) => {
    let next = 0;
    const cpu0 = cpuMs();
    const started = performance.now();
    await Promise.all(
      Array.from({ length: lanes }, async () => {
        while (next < items.length) {
          const index = next++;
          await task(items[index] as T, index);
        }
      }),
    );
    return { minutes: (performance.now() - started) / 60_000, cpuSeconds: (cpuMs() - cpu0) / 1000 };
  };
  const vinaCli = (ligand: PreparedLigandOk, out: string, threads: number) =>
    new Promise<number>((resolve, reject) => {
      const settings = { seed: SEED, exhaustiveness: 8, numModes: 9, cpu: threads };
      const child = spawn("vina", vinaDockingArgs(receptor.pdbqtPath, ligand.pdbqtPath, box, settings, out), {
        stdio: "ignore",
      });
      child.on("error", reject);
      child.on("close", () => {
        const text = readFileSync(out, "utf8");
        rmSync(out, { force: true });
        resolve(Number(/REMARK VINA RESULT:\s+(\S+)/.exec(text)?.[1]));
      });
    });
  const line = (label: string, done: number, run: { minutes: number; cpuSeconds: number }, extra = "") =>
    console.log(
      `${label.padEnd(44)} ${(done / run.minutes).toFixed(2).padStart(6)} compounds/min, ` +
        `${(run.cpuSeconds / done).toFixed(2).padStart(6)} CPU-s/compound${extra} [${load()}]`,
    );

  // 1. The single-CLI rate.
  const anchorScores: number[] = [];
  const anchor = await measure(ratioLigands, 1, async (ligand, index) => {
    anchorScores[index] = await vinaCli(ligand, join(work, `anchor-${index}.pdbqt`), 1);
  });
  const cliPerCpuSecond = ratioLigands.length / anchor.cpuSeconds;
  line("1. vina CLI --cpu 1, one at a time", ratioLigands.length, anchor);
  const expected = (ratioLigands.length / anchor.minutes) * cores;
  console.log(
    `   cores × single-CLI rate: ${expected.toFixed(2)} compounds/min (${cores} × wall); ` +
      `${(cliPerCpuSecond * 3600).toFixed(0)} compounds per core-hour (CPU)`,
  );

  // 2. One process, all threads.
  if (threadsCompounds > 0) {
    const few = ratioLigands.slice(0, threadsCompounds);
    const scores: number[] = [];
    const threaded = await measure(few, 1, async (ligand, index) => {
      scores[index] = await vinaCli(ligand, join(work, `threads-${index}.pdbqt`), cores);
    });
    const single = await measure(few, cores, async (ligand, index) => {
      await vinaCli(ligand, join(work, `lanes-${index}.pdbqt`), 1);
    });
    const same = scores.every((score, index) => score === anchorScores[index]);
    line(
      `2. vina --cpu ${cores}, one at a time (first ${few.length})`,
      few.length,
      threaded,
      `; same scores: ${same}`,
    );
    line(`   vina --cpu 1, ${cores} at once (same ${few.length})`, few.length, single);
  }

  // 3 and 4. The engine behind the pool, without and with the maps reused.
  const ratioOf = (run: { minutes: number; cpuSeconds: number }) =>
    `; × ${(ratioLigands.length / run.minutes / expected).toFixed(3)} cores × CLI (wall), ` +
    `CPU × ${(run.cpuSeconds / anchor.cpuSeconds).toFixed(3)} the CLI's`;
  const scoresMatch = (results: readonly DockingResult[]) => {
    const deltas = results.map((result, index) =>
      result.status === "docked" ? Math.abs(result.score - (anchorScores[index] ?? Number.NaN)) : Number.NaN,
    );
    const docked = results.filter((result) => result.status === "docked").length;
    return `; ${docked}/${results.length} docked, largest score difference to the CLI ${Math.max(...deltas).toFixed(3)} kcal/mol`;
  };
  const request = (ligand: PreparedLigandOk): DockingRequest => ({ ligand, receptor, box });
  const single = createVinaDockingEngine({ workDir: join(work, "single"), seed: SEED, cpu: 1 });
  const perCompound: DockingResult[] = [];
  const pooled = await measure(ratioLigands, cores, async (ligand, index) => {
    const result = await single.dock(request(ligand));
    perCompound[index] = result;
    if (result.status === "docked") await removeDockingFolder(result);
  });
  line(`3. engine, ${cores} compounds at once`, ratioLigands.length, pooled, ratioOf(pooled));
  console.log(`  ${scoresMatch(perCompound).slice(1)}`);
  const chunks = Array.from({ length: Math.ceil(ratioLigands.length / DOCKING_CHUNK) }, (_, at) =>
    ratioLigands.slice(at * DOCKING_CHUNK, (at + 1) * DOCKING_CHUNK),
  );
  const batched: DockingResult[] = [];
  const engine = createVinaDockingEngine({ workDir: join(work, "batch"), seed: SEED, cpu: 1 });
  const batch = await measure(chunks, cores, async (chunk, at) => {
    const results = await engine.dockBatch(chunk.map(request), { workDir: join(work, "batch", String(at)) });
    for (const [offset, result] of results.entries()) batched[at * DOCKING_CHUNK + offset] = result;
    rmSync(join(work, "batch", String(at)), { recursive: true, force: true });
  });
  line(
    `4. engine, maps reused: chunks of ${DOCKING_CHUNK}, ${cores} at once`,
    ratioLigands.length,
    batch,
    ratioOf(batch),
  );
  console.log(`  ${scoresMatch(batched).slice(1)}`);
  const perCoreHour = (ratioLigands.length / batch.cpuSeconds) * 3600;
  console.log(
    `throughput: ${perCoreHour.toFixed(0)} compounds per core-hour (step 4, CPU); a 20-pod Job of 8-CPU pods ` +
      `docks ~${((perCoreHour * 8 * 20) / 1000).toFixed(1)}k compounds/hour at most, each pod ` +
      `its budget (default 500) in ~${((500 / (perCoreHour * 8)) * 60).toFixed(0)} min of these compounds`,
  );

  if (scaleTo > 0) {
    // Memory scaling: the pooled batch path alone, results reduced to their scores as a caller keeps them.
    const scaling = createVinaDockingEngine({
      workDir: join(work, "scaling"),
      seed: SEED,
      cpu: 1,
      exhaustiveness: scaleExhaustiveness,
    });
    const scaleLigands = ligands.slice(0, scaleTo);
    const scalingBox =
      scaleBox > 0 ? pocketBoxFromCenterSize(box.center, [scaleBox, scaleBox, scaleBox]) : box;
    const scaleChunks = Array.from({ length: Math.ceil(scaleLigands.length / DOCKING_CHUNK) }, (_, at) =>
      scaleLigands.slice(at * DOCKING_CHUNK, (at + 1) * DOCKING_CHUNK),
    );
    const scores: (number | null)[] = [];
    let rssAt20: number | null = null;
    let done = 0;
    const run = await measure(scaleChunks, cores, async (chunk, at) => {
      const dir = join(work, "scaling", String(at));
      const results = await scaling.dockBatch(
        chunk.map((ligand) => ({ ligand, receptor, box: scalingBox })),
        { workDir: dir },
      );
      for (const [offset, result] of results.entries())
        scores[at * DOCKING_CHUNK + offset] = result.status === "docked" ? result.score : null;
      rmSync(dir, { recursive: true, force: true });
      done += results.length;
      if (rssAt20 === null && done >= Math.min(20, scaleLigands.length))
        rssAt20 = process.resourceUsage().maxRSS;
    });
    const rssEnd = process.resourceUsage().maxRSS;
    const mib = (kib: number) => (kib / 1024).toFixed(0);
    console.log(
      `scaling run (exhaustiveness ${scaleExhaustiveness}, box ${scalingBox.size.join(" × ")} Å, not the ratio run's: ` +
        "memory per compound does not depend on them): " +
        `${scores.filter((score) => score !== null).length}/${scaleLigands.length} docked in ${run.minutes.toFixed(1)} min [${load()}]`,
    );
    console.log(
      `peak RSS of this process: ${mib(rssAt20 ?? rssEnd)} MiB after ${Math.min(20, scaleLigands.length)} compounds, ` +
        `${mib(rssEnd)} MiB after ${scaleLigands.length} (growth ${(((rssEnd - (rssAt20 ?? rssEnd)) / (rssAt20 ?? rssEnd)) * 100).toFixed(1)}%)`,
    );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
