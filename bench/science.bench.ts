// Science benchmark: the full module set of @svc/science (prepareCompound, then every analyzer of
// IMPLEMENTED_MODULES: parent choice, PAINS + NIBR alerts, QED + rules + BOILED-Egg, three
// solubility models, manufacturability counts, SA score, the 13 metabolism reactions, Morgan
// fingerprints scanned against the Tox21, ClinTox and Delaney reference sets with the fingerprint
// models' dot products, the readiness ordering over the other findings) with RDKit WebAssembly on the first 1,000 molecules
// of NCI first_5K.smi (Debian rdkit-data), beside native RDKit (Debian python3-rdkit) doing the
// same steps in one process, timed inside Python so interpreter start-up is not counted. The
// native side skips InChI (Debian's build has none) and the 2D depiction: both favour native.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type CompoundFinding,
  IMPLEMENTED_MODULES,
  loadRDKit,
  METABOLISM_RULES,
  prepareCompound,
} from "@svc/science";

const MOLECULES = 1000;
const PYTHON = "/usr/bin/python3";
const NCI = "/usr/share/RDKit/Data/NCI/first_5K.smi";
const DATA = new URL("../packages/science/data/", import.meta.url);

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
function runAll(count: number): number {
  const analyzers = IMPLEMENTED_MODULES.map((module) => ({
    id: module.id,
    analyzer: module.createAnalyzer(),
  }));
  let parsed = 0;
  for (let i = 0; i < count; i++) {
    const compound = prepareCompound(rdkit, row(smiles[i] as string, i + 1));
    if (compound.ok) parsed++;
    // As the runner does: each module sees the findings of those before it (the readiness module reads them).
    const findings = new Map<string, CompoundFinding>();
    for (const { id, analyzer } of analyzers) findings.set(id, analyzer.analyze(compound, findings));
  }
  for (const { analyzer } of analyzers) analyzer.finish();
  return parsed;
}
runAll(100); // warm-up: JIT, wasm tiers, compiled queries and the solubility model
const started = performance.now();
const parsed = runAll(MOLECULES);
const wasmSeconds = (performance.now() - started) / 1000;
const wasmRate = MOLECULES / wasmSeconds;
console.log(
  `wasm RDKit ${rdkit.version()}  ${wasmRate.toFixed(0)} molecules/s (${wasmSeconds.toFixed(2)} s, ${parsed}/${MOLECULES} parsed, ${IMPLEMENTED_MODULES.length} modules)`,
);

if (!existsSync(PYTHON) || spawnSync(PYTHON, ["-c", "import rdkit"], { stdio: "ignore" }).status !== 0) {
  console.log(`native RDKit: not measured (${PYTHON} with rdkit not found; apt-get install python3-rdkit)`);
} else {
  const dir = mkdtempSync(join(tmpdir(), "svc-bench-science-"));
  try {
    const input = join(dir, "smiles.txt");
    writeFileSync(input, smiles.join("\n"));
    const script = `
import csv, json, sys, time
import numpy as np
from rdkit import Chem, DataStructs, RDLogger, rdBase
from rdkit.Chem import AllChem
from rdkit.Chem import Crippen, Descriptors, FilterCatalog, Lipinski, QED, rdMolDescriptors as rd
from rdkit.Chem.SaltRemover import SaltRemover
RDLogger.DisableLog("rdApp.*")
data = sys.argv[2]
remover = SaltRemover(defnFilename=data + "rdkit-salts.txt")
params = FilterCatalog.FilterCatalogParams(); params.AddCatalog(FilterCatalog.FilterCatalogParams.FilterCatalogs.PAINS)
pains = FilterCatalog.FilterCatalog(params)
nibr = FilterCatalog.FilterCatalog()
for r in csv.DictReader(open(data + "nibr-substructure-filters.csv")):
    nibr.AddEntry(FilterCatalog.FilterCatalogEntry(r["PATTERN_NAME"], FilterCatalog.SmartsMatcher(r["PATTERN_NAME"], r["SMARTS"], int(r["MIN_COUNT"]) or 1)))
sys.path.insert(0, "/usr/share/RDKit/Contrib/SA_Score")
import sascorer
sascorer.readFragmentScores()
model = json.load(open(data + "solubility-models.json"))["kernel"]
reactions = [AllChem.ReactionFromSmarts(r) for r in json.load(open(sys.argv[3]))]
def products(parent):
    for rxn in reactions:
        for product_set in rxn.RunReactants((parent,), 40):
            for p in product_set:
                Chem.MolFromSmiles(Chem.MolToSmiles(p))
train, alpha = np.array(model["train"]), np.array(model["alpha"])
def bits(h):
    v = DataStructs.ExplicitBitVect(2048); v.SetBitsFromList([int(h[i:i + 3], 16) for i in range(0, len(h), 3)]); return v
tox, ct = json.load(open(data + "tox21-fingerprint-model.json")), json.load(open(data + "clintox-fingerprint-model.json"))
refs = [[bits(b) for b, p in zip(f["row_bits"], f["row_split"]) if p in "tv"] for f in (tox, ct)]
refs.append([bits(b) for b, r in zip(ct["row_bits"], csv.DictReader(open(data + "clintox.csv"))) if r["FDA_APPROVED"] == "1"])
refs.append([bits(b) for b in json.load(open(data + "conformal-calibration.json"))["solubility"]["reference_bits"]])
tasks = tox["tasks"] + ct["tasks"]
mean, scale = np.array(model["mean"]), np.array(model["scale"])
def analyse(smi):
    mol = Chem.MolFromSmiles(smi)
    if mol is None or mol.GetNumAtoms() == 0: return False
    parent = remover.StripMol(mol, dontRemoveEverything=True)
    frags = Chem.GetMolFrags(parent, asMols=True)
    parent = max(frags, key=lambda f: f.GetNumHeavyAtoms())
    Chem.AssignStereochemistry(parent, cleanIt=True, force=True)
    Chem.MolToSmiles(parent)
    pains.GetMatches(Chem.AddHs(parent)); nibr.GetMatches(parent)
    QED.qed(parent)
    ha = parent.GetNumHeavyAtoms() or 1
    d = [Crippen.MolLogP(parent), Descriptors.MolWt(parent), rd.CalcNumRotatableBonds(parent, rd.NumRotatableBondsOptions.Strict),
         sum(a.GetIsAromatic() for a in parent.GetAtoms()) / ha, rd.CalcTPSA(parent), rd.CalcNumHBD(parent), rd.CalcNumHBA(parent),
         rd.CalcFractionCSP3(parent), rd.CalcNumAromaticRings(parent), Crippen.MolMR(parent), rd.CalcNumRings(parent), ha,
         rd.CalcLabuteASA(parent), rd.CalcNumHeteroatoms(parent)]
    x = (np.array(d) - mean) / scale
    float(np.exp(-model["gamma"] * ((train - x) ** 2).sum(1)) @ alpha)
    Lipinski.NOCount(parent); Lipinski.NHOHCount(parent); Chem.AddHs(parent).GetNumAtoms()
    rd.CalcNumAtomStereoCenters(parent); rd.CalcNumUnspecifiedAtomStereoCenters(parent)
    rd.CalcNumSpiroAtoms(parent); rd.CalcNumBridgeheadAtoms(parent); parent.GetRingInfo().AtomRings()
    sascorer.calculateScore(parent)
    products(parent)
    fp = AllChem.GetMorganFingerprintAsBitVect(parent, 2, nBits=2048); on = list(fp.GetOnBits())
    for ref in refs: max(DataStructs.BulkTanimotoSimilarity(fp, ref))
    for t in tasks: t["bias"] + sum(t["weights"][b] for b in on)
    return True
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
