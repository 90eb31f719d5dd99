"""Reference for src/gnn/gcn-parity.validation.test.ts: gcn_toxicity's atom and bond features from native RDKit
and the float64 forward pass over the checked-in weights (both from scripts/tox21-gcn-graph.py, the
code the training used). Reads `smiles id` lines from stdin (`-`); prints
{id: {"atoms": [...], "bonds": [[begin, end, features]], "probabilities": [12]}} (null if RDKit refuses).
"""
import importlib.util
import json
import os
import sys

from rdkit import RDLogger

RDLogger.DisableLog("rdApp.*")
HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.join(HERE, "..", "..", "scripts")
spec = importlib.util.spec_from_file_location("tox21_gcn_graph", os.path.join(SCRIPTS, "tox21-gcn-graph.py"))
graphs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(graphs)

with open(os.path.join(HERE, "..", "..", "data", "tox21-gcn-model.json")) as handle:
    weights = graphs.as_arrays(json.load(handle)["weights"])
out = {}
for line in sys.stdin:
    parts = line.split()
    if len(parts) < 2:
        continue
    smiles, ident = parts[0], parts[1]
    graph = graphs.graph_of(smiles)
    if graph is None:
        out[ident] = None
        continue
    out[ident] = {
        "atoms": graph[0],
        "bonds": [[a, b, f] for a, b, f in graph[1]],
        "probabilities": graphs.forward(weights, graph).tolist(),
    }
json.dump(out, sys.stdout)
