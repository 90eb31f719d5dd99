"""The native RDKit side of the runner benchmark (bench/runner.bench.ts), in one process.

Per compound, what svc-runner does with RDKit WebAssembly, with native RDKit (Debian python3-rdkit):
parse, largest fragment, canonical SMILES, InChI/InChIKey where its build has them, charges, the
property set and a 2D SVG depiction, one JSON line per compound, then every science module's steps
(science_steps.py, shared with the science bench).

    python3 runner_steps.py <input.smi> <output.jsonl> <reactions.json> <science data dir/>

Prints one JSON line: RDKit's version, whether InChI is there, and this process's CPU seconds
(getrusage: user + system, every thread). The caller pins BLAS and OpenMP to one thread
(OPENBLAS_NUM_THREADS=1, OMP_NUM_THREADS=1, MKL_NUM_THREADS=1): NumPy's second thread otherwise
doubled the CPU for the same wall time (issue 42).
"""
import json
import os
import resource
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import science_steps  # noqa: E402

analyse = science_steps.load(sys.argv[4], sys.argv[3])
from rdkit import Chem, RDLogger, rdBase  # noqa: E402
from rdkit.Chem import inchi as rdinchi  # noqa: E402
from rdkit.Chem import rdMolDescriptors  # noqa: E402
from rdkit.Chem.Draw import rdMolDraw2D  # noqa: E402

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
    drawer.DrawMolecule(parent)
    drawer.FinishDrawing()
    analyse(smi)
    return {"id": ident, "ok": True, "smiles": Chem.MolToSmiles(mol), "parent": Chem.MolToSmiles(parent),
            "keys": keys, "charge": sum(a.GetFormalCharge() for a in parent.GetAtoms()),
            "props": dict(zip(names, props.ComputeProperties(parent))), "svg": drawer.GetDrawingText()}


with open(sys.argv[1]) as source, open(sys.argv[2], "w") as sink:
    for line in source:
        parts = line.split()
        if parts:
            sink.write(json.dumps(prepare(parts[0], parts[1] if len(parts) > 1 else "")) + "\n")
usage = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"version": rdBase.rdkitVersion, "inchi": rdinchi.INCHI_AVAILABLE, "cpu": usage.ru_utime + usage.ru_stime}))
