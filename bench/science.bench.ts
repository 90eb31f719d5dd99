// Science benchmark: the full module set of @svc/science (prepareCompound, then every analyzer of
// IMPLEMENTED_MODULES: parent choice, PAINS + NIBR alerts, QED + rules + BOILED-Egg, three
// solubility models, manufacturability counts, SA score, the 13 metabolism reactions, Morgan
// fingerprints scanned against the Tox21, ClinTox, Delaney, DrugCentral safety-panel and DrugCentral all-target
// (offtarget_screening's five nearest drugs) reference sets with the fingerprint
// models' dot products, the logD7.4 model's Tanimoto kernel over its 3,360 training rows, the readiness ordering over the other findings) with RDKit WebAssembly on the first 1,000 molecules
// of NCI first_5K.smi (Debian rdkit-data), beside native RDKit (Debian python3-rdkit) doing the
// same steps in one process, timed inside Python so interpreter start-up is not counted. The
// native side skips InChI (Debian's build has none) and the 2D depiction: both favour native.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { classifyTdc, regressTdc, TDC_DATASETS, tdcInputs, tdcModel } from "@svc/science/admet";
import { METABOLISM_RULES } from "@svc/science/metabolism";
import {
  type CompoundFinding,
  IMPLEMENTED_MODULES,
  inOneThread,
  loadRDKit,
  prepareCompound,
} from "@svc/science/modules";

const MOLECULES = 1000;
const PYTHON = "/usr/bin/python3";
const NCI = "/usr/share/RDKit/Data/NCI/first_5K.smi";
const DATA = new URL("../packages/science/data/", import.meta.url);
const NATIVE_DIR = new URL("./native/", import.meta.url).pathname;

if (!existsSync(NCI)) {
  console.log(`science bench: not measured (${NCI} missing; apt-get install rdkit-data)`);
  process.exit(0);
}
const smiles = readFileSync(NCI, "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .slice(0, MOLECULES)
  .map((line) => line.split(/\s+/)[0] ?? "");

const rdkit = await loadRDKit();
const row = (value: string, index: number) => ({
  index,
  line: index + 1,
  candidateId: `C${index}`,
  name: null,
  smiles: value,
  metadata: {},
});
/** CPU time per module over the timed pass (issue 26 item 7: the added cost of each new model; CPU, not wall, on a shared machine). */
const moduleMs = new Map<string, number>();
function runAll(count: number): number {
  const analyzers = IMPLEMENTED_MODULES.map((module) => ({
    id: module.id,
    analyzer: inOneThread(module),
  }));
  let parsed = 0;
  for (let i = 0; i < count; i++) {
    const compound = prepareCompound(rdkit, row(smiles[i] as string, i + 1));
    if (compound.ok) parsed++;
    // As the runner does: each module sees the findings of those before it (the readiness module reads them).
    const findings = new Map<string, CompoundFinding>();
    for (const { id, analyzer } of analyzers) {
      const before = process.cpuUsage();
      findings.set(id, analyzer.analyze(compound, findings));
      const used = process.cpuUsage(before);
      moduleMs.set(id, (moduleMs.get(id) ?? 0) + (used.user + used.system) / 1000);
    }
  }
  for (const { analyzer } of analyzers) analyzer.finish();
  return parsed;
}
runAll(100); // warm-up: JIT, wasm tiers, compiled queries and the solubility model
moduleMs.clear();
const started = performance.now();
const parsed = runAll(MOLECULES);
const wasmSeconds = (performance.now() - started) / 1000;
const wasmRate = MOLECULES / wasmSeconds;
console.log(
  `wasm RDKit ${rdkit.version()}  ${wasmRate.toFixed(0)} molecules/s (${wasmSeconds.toFixed(2)} s, ${parsed}/${MOLECULES} parsed, ${IMPLEMENTED_MODULES.length} modules)`,
);

for (const id of ["gcn_toxicity", "offtarget_screening"])
  console.log(
    `${id}: ${((moduleMs.get(id) ?? 0) / MOLECULES).toFixed(2)} ms CPU per compound (within the figure above)`,
  );
// The TDC models of issue 26 (five CYP isoforms plus every adopted hERG/Ames/DILI/P-gp/Caco-2/half-life
// model): CPU per compound on top of the run above, whose modules already computed the parent's
// Morgan bits and RDKit descriptors the models read. Models are loaded once (as once per worker).
{
  const live = TDC_DATASETS.filter((d) => d.destination === "cyp_assessment" || tdcModel(d.key).file.adopted);
  const prepared = smiles.map((s, i) => prepareCompound(rdkit, row(s, i + 1))).filter((c) => c.ok);
  const predictAll = (compound: (typeof prepared)[number]) => {
    if (!compound.ok) return;
    const { bits, raw } = tdcInputs(compound);
    for (const d of live) (d.task === "classification" ? classifyTdc : regressTdc)(d.key, bits, raw);
  };
  let cpu = 0;
  for (const compound of prepared) {
    predictAll(compound); // the other modules' share: bits and descriptors of this parent
    const before = process.cpuUsage();
    predictAll(compound);
    const used = process.cpuUsage(before);
    cpu += used.user + used.system;
  }
  console.log(
    `TDC models (${live.map((d) => d.key).join(", ")}): ${(cpu / 1000 / prepared.length).toFixed(2)} ms CPU per compound added (${prepared.length} compounds)`,
  );
}

if (!existsSync(PYTHON) || spawnSync(PYTHON, ["-c", "import rdkit"], { stdio: "ignore" }).status !== 0) {
  console.log(`native RDKit: not measured (${PYTHON} with rdkit not found; apt-get install python3-rdkit)`);
} else {
  const dir = mkdtempSync(join(tmpdir(), "svc-bench-science-"));
  try {
    const input = join(dir, "smiles.txt");
    writeFileSync(input, smiles.join("\n"));
    // bench/native/science_steps.py: the same steps, one home for this bench and the runner's.
    const script = `
import json, sys, time
from rdkit import rdBase
sys.path.insert(0, ${JSON.stringify(NATIVE_DIR)})
import science_steps
analyse = science_steps.load(sys.argv[2], sys.argv[3])
smiles = open(sys.argv[1]).read().split("\\n")
for s in smiles[:100]: analyse(s)
start = time.perf_counter()
ok = sum(1 for s in smiles if analyse(s))
print(json.dumps({"seconds": time.perf_counter() - start, "parsed": ok, "version": rdBase.rdkitVersion}))
`;
    const scriptPath = join(dir, "native.py");
    writeFileSync(scriptPath, script);
    const reactionsPath = join(dir, "reactions.json");
    writeFileSync(reactionsPath, JSON.stringify(METABOLISM_RULES.map((rule) => rule.reaction)));
    const native = JSON.parse(
      execFileSync(PYTHON, [scriptPath, input, `${DATA.pathname}`, reactionsPath], { encoding: "utf8" }),
    ) as { seconds: number; parsed: number; version: string };
    const nativeRate = MOLECULES / native.seconds;
    console.log(
      `native RDKit ${native.version}  ${nativeRate.toFixed(0)} molecules/s (${native.seconds.toFixed(2)} s, ${native.parsed}/${MOLECULES} parsed)`,
    );
    console.log(
      `ratio      wasm / native = ${(wasmRate / nativeRate).toFixed(2)}x (anchor: native RDKit, same steps)`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
