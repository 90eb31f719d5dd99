// y_scramble_validation benchmark: the module on ChEMBL series CHEMBL2321810 (1,017 compounds
// with activities, packages/science/data) and on 2,000 NCI first_5K molecules (the module's
// per-assay cap; seeded random activities, timing only). Per run: prepareCompound + the module's
// per-compound step (parent Morgan bits; prepareCompound, shared by all modules, is not timed), then finish(): ridge on the bits, 5 × 5-fold CV, 100
// y-scrambles. Anchor: native RDKit fingerprints + numpy/BLAS ridge refitted per fold on the same
// 101 responses (bench/native/ridge_scramble.py), timed inside Python.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inOneThread, loadRDKit, prepareCompound } from "@svc/science/modules";
import { yScrambleValidation } from "@svc/science/yscramble";

const PYTHON = "/usr/bin/python3";
const NCI = "/usr/share/RDKit/Data/NCI/first_5K.smi";
const DATA = new URL("../packages/science/data/", import.meta.url);
const NATIVE = new URL("./native/ridge_scramble.py", import.meta.url).pathname;

function chembl(): { smiles: string[]; activity: number[] } {
  const act = new Map(
    readFileSync(new URL("chembl2321810-act.csv", DATA), "utf8")
      .split("\n")
      .slice(1)
      .filter((line) => line.trim() !== "")
      .map((line) => line.split(",") as [string, string]),
  );
  const rows = readFileSync(new URL("chembl2321810.smi", DATA), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => line.trim().split(/\s+/) as [string, string]);
  return { smiles: rows.map((r) => r[0]), activity: rows.map((r) => Number(act.get(r[1]))) };
}

function nci(count: number): { smiles: string[]; activity: number[] } {
  const smiles = readFileSync(NCI, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => line.split(/\s+/)[0] ?? "")
    .slice(0, count);
  let state = 42;
  const activity = smiles.map(() => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return 4 + (state / 2 ** 32) * 5;
  });
  return { smiles, activity };
}

const rdkit = await loadRDKit();

function measure(name: string, set: { smiles: string[]; activity: number[] }): void {
  const analyzer = inOneThread(yScrambleValidation);
  // prepareCompound (InChI, depiction, descriptors) is shared by every module: not timed here.
  const compounds = set.smiles.map((smiles, i) =>
    prepareCompound(rdkit, {
      index: i + 1,
      line: i + 2,
      candidateId: `C${i + 1}`,
      name: null,
      smiles,
      metadata: {},
      activities: { A: set.activity[i] ?? 0 },
    }),
  );
  const start = performance.now();
  for (const compound of compounds) analyzer.analyze(compound);
  const perCompound = (performance.now() - start) / 1000;
  const finishStart = performance.now();
  const summary = analyzer.finish();
  const finish = (performance.now() - finishStart) / 1000;
  const a = summary.assays.A;
  const figures =
    a?.status === "assessed" ? `q² ${a.q2}, max scramble q² ${a.scrambles.max_q2}, ${a.verdict}` : a?.reason;
  console.log(
    `${name}: ${a?.compounds} compounds  per-compound step (parent Morgan bits) ${perCompound.toFixed(2)} s, finish (5×5 CV × 101 fits) ${finish.toFixed(2)} s  [${figures}]`,
  );
  if (
    !existsSync(PYTHON) ||
    spawnSync(PYTHON, ["-c", "import rdkit, numpy"], { stdio: "ignore" }).status !== 0
  ) {
    console.log("  native anchor: not measured (/usr/bin/python3 with rdkit and numpy not found)");
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), "svc-bench-yscramble-"));
  try {
    writeFileSync(join(dir, "smiles.txt"), set.smiles.join("\n"));
    writeFileSync(join(dir, "act.txt"), set.activity.join("\n"));
    const native = JSON.parse(
      execFileSync(PYTHON, [NATIVE, join(dir, "smiles.txt"), join(dir, "act.txt")], {
        encoding: "utf8",
        env: { ...process.env, OPENBLAS_NUM_THREADS: "1", OMP_NUM_THREADS: "1", MKL_NUM_THREADS: "1" },
      }),
    ) as { seconds: number; compounds: number; real_q2: number };
    console.log(
      `  native anchor (RDKit + numpy, primal refit per fold): ${native.compounds} compounds ${native.seconds.toFixed(2)} s, q² ${native.real_q2.toFixed(4)}; ratio ours / native = ${((perCompound + finish) / native.seconds).toFixed(2)}x`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

measure("CHEMBL2321810", chembl());
if (existsSync(NCI)) measure("NCI first 2,000 (cap)", nci(2000));
else console.log(`NCI cap run: not measured (${NCI} missing; apt-get install rdkit-data)`);
