// Runner benchmark: per-compound chemistry of the audit job (parse, standardize to the largest
// fragment, canonical SMILES, InChI and InChIKey of input and parent, net charge, the RDKit
// property set and a 2D SVG depiction — what prepareCompound does for every portfolio row) on
// 2,000 molecules with RDKit WebAssembly (@rdkit/rdkit), beside the same work done by native
// RDKit (Debian's python3-rdkit, timed inside Python so interpreter start-up is not counted).
// Memory: RSS before and after, to show the wasm heap does not grow with the portfolio.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadRDKit, prepareCompound } from "@svc/science";

const MOLECULES = 2000;
const PYTHON = "/usr/bin/python3";

const demo = readFileSync(
  new URL("../examples/demo/01_sources/portfolio_selected.csv", import.meta.url),
  "utf8",
);
const header = demo.split("\n")[0]?.split(",") ?? [];
const smilesColumn = header.indexOf("smiles");
const base = demo
  .split("\n")
  .slice(1)
  .filter((line) => line.trim() !== "")
  .map((line) => line.split(",")[smilesColumn] ?? "");
const smiles = Array.from({ length: MOLECULES }, (_, i) => base[i % base.length] as string);

function hasNativeRdkit(): boolean {
  if (!existsSync(PYTHON)) return false;
  return spawnSync(PYTHON, ["-c", "import rdkit"], { stdio: "ignore" }).status === 0;
}

const rdkit = await loadRDKit();
const row = (value: string, index: number) => ({
  index,
  line: index + 1,
  candidateId: `C${index}`,
  name: null,
  smiles: value,
  metadata: {},
});
// Warm-up: JIT and wasm tiers, as a long run would be.
for (let i = 0; i < 200; i++) prepareCompound(rdkit, row(smiles[i] as string, i));
const rssBefore = process.memoryUsage().rss;
const started = performance.now();
let parsed = 0;
for (let i = 0; i < smiles.length; i++) if (prepareCompound(rdkit, row(smiles[i] as string, i)).ok) parsed++;
const wasmSeconds = (performance.now() - started) / 1000;
const rssAfter = process.memoryUsage().rss;
console.log(
  `wasm RDKit ${rdkit.version()}  ${(MOLECULES / wasmSeconds).toFixed(0)} molecules/s (${wasmSeconds.toFixed(2)} s, ${parsed}/${MOLECULES} parsed)`,
);
console.log(
  `memory     RSS ${(rssBefore / 2 ** 20).toFixed(0)} MiB before, ${(rssAfter / 2 ** 20).toFixed(0)} MiB after ${MOLECULES} molecules`,
);

if (!hasNativeRdkit()) {
  console.log(`native RDKit: not measured (${PYTHON} with rdkit not found; apt-get install python3-rdkit)`);
} else {
  const dir = mkdtempSync(join(tmpdir(), "svc-bench-runner-"));
  const input = join(dir, "smiles.txt");
  writeFileSync(input, smiles.join("\n"));
  const script = `
import sys, time, json
from rdkit import Chem, RDLogger, rdBase
from rdkit.Chem import rdMolDescriptors, inchi as rdinchi
from rdkit.Chem.Draw import rdMolDraw2D
RDLogger.DisableLog("rdApp.*")
props = rdMolDescriptors.Properties()
def prepare(smi):
    mol = Chem.MolFromSmiles(smi)
    if mol is None or mol.GetNumAtoms() == 0:
        return False
    frags = Chem.GetMolFrags(mol, asMols=True)
    parent = mol
    if len(frags) > 1:
        parent = Chem.MolFromSmiles(min(((-f.GetNumHeavyAtoms(), Chem.MolToSmiles(f)) for f in frags))[1])
    if rdinchi.INCHI_AVAILABLE:
        Chem.InchiToInchiKey(Chem.MolToInchi(mol))
        Chem.InchiToInchiKey(Chem.MolToInchi(parent))
    Chem.MolToSmiles(mol); Chem.MolToSmiles(parent)
    sum(a.GetFormalCharge() for a in mol.GetAtoms()); sum(a.GetFormalCharge() for a in parent.GetAtoms())
    list(props.ComputeProperties(parent))
    drawer = rdMolDraw2D.MolDraw2DSVG(260, 180)
    drawer.DrawMolecule(parent); drawer.FinishDrawing(); drawer.GetDrawingText()
    return True
smiles = open(sys.argv[1]).read().split("\\n")
for s in smiles[:200]: prepare(s)
start = time.perf_counter()
ok = sum(1 for s in smiles if prepare(s))
print(json.dumps({"seconds": time.perf_counter() - start, "parsed": ok, "version": rdBase.rdkitVersion, "inchi": rdinchi.INCHI_AVAILABLE}))
`;
  const out = JSON.parse(execFileSync(PYTHON, ["-c", script, input], { encoding: "utf8" })) as {
    seconds: number;
    parsed: number;
    version: string;
    inchi: boolean;
  };
  rmSync(dir, { recursive: true, force: true });
  console.log(
    `native RDKit ${out.version}  ${(MOLECULES / out.seconds).toFixed(0)} molecules/s (${out.seconds.toFixed(2)} s, ${out.parsed}/${MOLECULES} parsed)`,
  );
  const steps = out.inchi
    ? "same steps"
    : "native skips InChI/InChIKey: its build has none, so the ratio understates wasm";
  console.log(
    `ratio      wasm/native = ${(out.seconds / wasmSeconds).toFixed(2)} (same molecules; ${steps})`,
  );
}
