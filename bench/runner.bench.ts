// Runner benchmark, end to end (issue 10 item 4): `svc-runner` audits NCI first_5K.smi (Debian
// rdkit-data) as a customer would — validation in the worker pool, the charge against the real
// entitlement service, analysis, every output, the seal — beside a native RDKit script
// (python3-rdkit) doing the same per-compound steps in one process: parse, largest fragment,
// canonical SMILES, InChI/InChIKey where its build has them, charges, the property set and a
// 2D SVG depiction, one JSON line per compound, then every science module's steps
// (bench/native/science_steps.py, shared with the science bench). Both are timed as whole processes. Then the same
// portfolio repeated to 50k rows (NCI rows again with new ids: `<id>_<repeat>`) shows whether
// peak RSS stays flat.
// Anchor: the native script. Goal on the 2-core machine: ≥ 1.5× native, RSS flat 5k → 50k.
// BENCH_RUNNER_LARGE=<rows> changes the large run (0 skips it).
// `--report-560k` (opt-in, hours on 2 cores): also audits 560,000 rows (NCI repeated) and checks
// the bound: results/report.html under 25 MB, and prints its peak RSS beside the 5k run's.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { METABOLISM_RULES } from "@svc/science";
import { MAIN_THREAD_NODE_FLAGS } from "../packages/runner/src/heap-limits.ts";
import { startTestEntitlement } from "../packages/runner/test/support/entitlement-harness.ts";

const NCI = "/usr/share/RDKit/Data/NCI/first_5K.smi";
const PYTHON = "/usr/bin/python3";
const SCIENCE_DATA = new URL("../packages/science/data/", import.meta.url).pathname;
const NATIVE_DIR = new URL("./native/", import.meta.url).pathname;
const BIN = new URL("../packages/runner/bin/svc-runner.ts", import.meta.url).pathname;
const LARGE = Number(process.env.BENCH_RUNNER_LARGE ?? "50000");
const HUGE = process.argv.includes("--report-560k") ? 560_000 : 0;
const REPORT_MAX_BYTES = 25 * 1024 * 1024;

if (!existsSync(NCI) || spawnSync(PYTHON, ["-c", "import rdkit"], { stdio: "ignore" }).status !== 0) {
  console.log(`needs ${NCI} and native RDKit: sudo apt-get install -y rdkit-data python3-rdkit`);
  process.exit(1);
}
const nci = readFileSync(NCI, "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => line.split(/\s+/));

const root = mkdtempSync(join(tmpdir(), "svc-bench-runner-"));
const service = await startTestEntitlement();
try {
  const principal = "bench@example.com";
  await service.grant(principal, 5);
  // The dev token is read once (SVC_DEV_TOKEN) and must outlast the longest audit: the 560k run
  // takes about 90 min, and a 1 h token made its run_complete fail with 401 AUTH_EXPIRED.
  const token = await service.tokenFor(principal, 12 * 3600);

  /** Stages `rows` rows of NCI (repeated with suffixed ids) and runs one entitled audit. */
  const audit = async (rows: number) => {
    const project = `nci_${rows}`;
    const sources = join(root, "input", project, "01_sources");
    mkdirSync(sources, { recursive: true });
    const lines = Array.from({ length: rows }, (_, at) => {
      const [smiles, id] = nci[at % nci.length] as string[];
      return `${smiles} ${id}_${Math.floor(at / nci.length)}`;
    });
    writeFileSync(join(sources, "portfolio.smi"), `${lines.join("\n")}\n`);
    writeFileSync(join(sources, "sources.json"), JSON.stringify({ portfolio_selected_csv: "portfolio.smi" }));
    const started = performance.now();
    const log = await runProcess(
      process.execPath,
      [
        // As the runner image starts it (NODE_OPTIONS): the main thread's heap limit.
        ...MAIN_THREAD_NODE_FLAGS,
        BIN,
        ...["--project-id", project, "--run-id", `bench_${rows}`, "--input-root", join(root, "input")],
        ...["--output-root", join(root, "output"), "--entitlement-url", service.url, "--auth-mode", "dev"],
        ...["--log-format", "json"],
      ],
      { ...process.env, SVC_DEV_TOKEN: token },
    );
    const seconds = (performance.now() - started) / 1000;
    const last = JSON.parse(log.trim().split("\n").at(-1) as string) as {
      max_rss_mib?: number;
      cpu_s?: number;
      seal_status?: string;
      msg: string;
    };
    // Only a sealed run counts: a pre-seal (exit 10) also ends with the peak-memory line.
    if (last.max_rss_mib === undefined || last.seal_status !== "sealed")
      throw new Error(`svc-runner did not seal the run: ${log.slice(-2000)}`);
    const workers = /"workers":(\d+)/.exec(log)?.[1] ?? "?";
    const report = statSync(join(root, "output", `bench_${rows}`, "results", "report.html")).size;
    rmSync(join(root, "output", `bench_${rows}`), { recursive: true, force: true });
    return { seconds, rss: last.max_rss_mib, cpu: last.cpu_s ?? Number.NaN, workers, report };
  };

  const small = await audit(nci.length);
  console.log(
    `svc-runner   ${(nci.length / small.seconds).toFixed(0)} compounds/s end to end (${small.seconds.toFixed(1)} s for ${nci.length}, ${small.workers} workers, peak RSS ${small.rss} MiB)`,
  );

  const native = nativeSeconds();
  console.log(
    `native RDKit ${(nci.length / native.seconds).toFixed(0)} compounds/s in one process (${native.seconds.toFixed(1)} s, ${native.version}${native.inchi ? "" : ", its build has no InChI: fewer steps than svc-runner"})`,
  );
  console.log(
    `ratio        svc-runner/native speed = ${(native.seconds / small.seconds).toFixed(2)}× (goal ≥ 1.5×; whole processes, same molecules)`,
  );
  // CPU time is what a loaded machine distorts least: wall time on an idle machine with W workers
  // is about CPU / W for svc-runner and CPU for the one-process native script.
  console.log(
    `cpu          svc-runner ${small.cpu} s of CPU (all threads; Chromium's PDF not included), native ${native.cpu.toFixed(1)} s: ${((small.cpu / nci.length) * 1000).toFixed(1)} vs ${((native.cpu / nci.length) * 1000).toFixed(1)} ms per compound`,
  );

  if (LARGE > 0) {
    const large = await audit(LARGE);
    console.log(
      `svc-runner   ${(LARGE / large.seconds).toFixed(0)} compounds/s on ${LARGE} rows (${large.seconds.toFixed(1)} s, peak RSS ${large.rss} MiB)`,
    );
    console.log(
      `memory       peak RSS ${LARGE} rows / ${nci.length} rows = ${(large.rss / small.rss).toFixed(2)} (${large.rss} / ${small.rss} MiB; flat = 1.0)`,
    );
  }

  if (HUGE > 0) {
    const huge = await audit(HUGE);
    const mb = (huge.report / 1024 / 1024).toFixed(1);
    console.log(
      `560k         ${HUGE} rows in ${(huge.seconds / 60).toFixed(1)} min; report.html ${mb} MB (${huge.report < REPORT_MAX_BYTES ? "under" : "OVER"} the 25 MB bound); peak RSS ${huge.rss} MiB = ${(huge.rss / small.rss).toFixed(2)} × the ${nci.length}-row run`,
    );
    if (huge.report >= REPORT_MAX_BYTES) process.exitCode = 1;
  }
} finally {
  await service.close();
  rmSync(root, { recursive: true, force: true });
}

function runProcess(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += String(chunk);
    });
    child.on("error", reject);
    child.on("close", () => resolve(stderr));
  });
}

function nativeSeconds(): { seconds: number; version: string; inchi: boolean; cpu: number } {
  const out = join(root, "native.jsonl");
  const reactions = join(root, "reactions.json");
  writeFileSync(reactions, JSON.stringify(METABOLISM_RULES.map((rule) => rule.reaction)));
  const script = `
import sys, json
sys.path.insert(0, ${JSON.stringify(NATIVE_DIR)})
import science_steps
analyse = science_steps.load(${JSON.stringify(SCIENCE_DATA)}, sys.argv[3])
from rdkit import Chem, RDLogger, rdBase
from rdkit.Chem import rdMolDescriptors, inchi as rdinchi
from rdkit.Chem.Draw import rdMolDraw2D
RDLogger.DisableLog("rdApp.*")
props = rdMolDescriptors.Properties()
names = list(props.GetPropertyNames())
def prepare(smi, ident):
    mol = Chem.MolFromSmiles(smi)
    if mol is None or mol.GetNumAtoms() == 0:
        return {"id": ident, "ok": False}
    frags = Chem.GetMolFrags(mol, asMols=True)
    parent = mol
    if len(frags) > 1:
        parent = Chem.MolFromSmiles(min(((-f.GetNumHeavyAtoms(), Chem.MolToSmiles(f)) for f in frags))[1])
    keys = None
    if rdinchi.INCHI_AVAILABLE:
        keys = [Chem.InchiToInchiKey(Chem.MolToInchi(mol)), Chem.InchiToInchiKey(Chem.MolToInchi(parent))]
    drawer = rdMolDraw2D.MolDraw2DSVG(260, 180)
    drawer.DrawMolecule(parent); drawer.FinishDrawing()
    analyse(smi)
    return {"id": ident, "ok": True, "smiles": Chem.MolToSmiles(mol), "parent": Chem.MolToSmiles(parent),
            "keys": keys, "charge": sum(a.GetFormalCharge() for a in parent.GetAtoms()),
            "props": dict(zip(names, props.ComputeProperties(parent))), "svg": drawer.GetDrawingText()}
with open(sys.argv[1]) as source, open(sys.argv[2], "w") as sink:
    for line in source:
        parts = line.split()
        if parts:
            sink.write(json.dumps(prepare(parts[0], parts[1] if len(parts) > 1 else "")) + "\\n")
import resource
usage = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"version": rdBase.rdkitVersion, "inchi": rdinchi.INCHI_AVAILABLE, "cpu": usage.ru_utime + usage.ru_stime}))
`;
  const started = performance.now();
  const info = JSON.parse(
    execFileSync(PYTHON, ["-c", script, NCI, out, reactions], { encoding: "utf8" }),
  ) as {
    version: string;
    inchi: boolean;
    cpu: number;
  };
  return { seconds: (performance.now() - started) / 1000, ...info };
}
