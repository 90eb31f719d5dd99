"""Trains gcn_toxicity: a graph convolutional network, multi-task on Tox21's twelve assays (issue 26 item 2).

Model (scripts/tox21-gcn-graph.py holds the features and the float64 forward pass the TypeScript
one must equal): the graph convolution of Kipf & Welling (ICLR 2017) with Duvenaud et al.'s (NeurIPS
2015) sum-over-neighbours update and bond-typed messages, as MoleculeNet's GraphConv uses it (Wu et al.,
Chem. Sci. 2018, 9, 513: 64-wide graph layers, a 128-wide dense layer, sum and max gather):
  h0 = relu(x W_in + b_in)
  h' = relu(h W_self + sum over neighbours u of (h_u W_neighbour + e_uv W_bond) + b)     (3 layers, 64 wide)
  g  = [sum_v h_v, max_v h_v];  z = relu(g W_readout + b);  p = sigmoid(z W_out + b)     (128, then 12)
Loss: binary cross-entropy over the labelled cells only (Tox21's blanks are masked, not negatives).
Adam (lr 1e-3), batches of 64, dropout 0.1 before the readout while training; early stopping on the
mean validation ROC-AUC (patience 15, at most 100 epochs), the best epoch's weights are kept.

Structures: the parents the runner computes (prepareCompound's salt stripping, class gate and
neutralisation are TypeScript only), exported by scripts/export-tox21-parents.ts and read here with
native RDKit. Two splits, both reported: MoleculeNet's random 80/10/10 for Tox21 (the row split of
data/tox21-fingerprint-model.json, seed 20180513, so the fingerprint model that runs today is scored on
the same rows) and MoleculeNet's scaffold split (data/scaffold-splits.json). The random-split network
is the deployed one (data/tox21-gcn-model.json); the scaffold-split one is trained the same way for its
figures only. Deterministic: fixed seeds, one thread.

Run (from the repository root; Node 24 on PATH for the export; 11.5 min wall, 4.4 min CPU on 2 shared cores):
  /usr/bin/python3 packages/science/scripts/train-tox21-gcn.py [PARENTS.json]
(PARENTS.json: an earlier export-tox21-parents.ts output, to skip that step) writes data/tox21-gcn-model.json and data/tox21-gcn-figures.json.
"""
import csv
import hashlib
import importlib.util
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import warnings

import numpy as np
import torch
from rdkit import RDLogger, rdBase

RDLogger.DisableLog("rdApp.*")
warnings.filterwarnings("ignore", message="scatter_reduce")  # beta in torch 1.13, correct for amax
HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "data")
spec = importlib.util.spec_from_file_location("tox21_gcn_graph", os.path.join(HERE, "tox21-gcn-graph.py"))
graphs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(graphs)

MODEL_ID = "tox21_gcn_3x64"
SEED = 20180513
HIDDEN, LAYERS, READOUT = 64, 3, 128
LEARNING_RATE, BATCH, DROPOUT = 1e-3, 64, 0.1
MAX_EPOCHS, PATIENCE = 100, 15
SIGNIFICANT = 7  # weights are written with 7 significant digits; every figure is measured on those
MOLECULENET_GRAPHCONV = 0.829
TASKS = ["NR-AR", "NR-AR-LBD", "NR-AhR", "NR-Aromatase", "NR-ER", "NR-ER-LBD", "NR-PPAR-gamma",
         "SR-ARE", "SR-ATAD5", "SR-HSE", "SR-MMP", "SR-p53"]


class Gcn(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.input = torch.nn.Linear(graphs.ATOM_FEATURES, HIDDEN)
        self.self_w = torch.nn.ModuleList([torch.nn.Linear(HIDDEN, HIDDEN) for _ in range(LAYERS)])
        self.neighbour_w = torch.nn.ModuleList([torch.nn.Linear(HIDDEN, HIDDEN, bias=False) for _ in range(LAYERS)])
        self.bond_w = torch.nn.ModuleList(
            [torch.nn.Linear(graphs.BOND_FEATURES, HIDDEN, bias=False) for _ in range(LAYERS)])
        self.readout = torch.nn.Linear(2 * HIDDEN, READOUT)
        self.output = torch.nn.Linear(READOUT, len(TASKS))
        self.dropout = torch.nn.Dropout(DROPOUT)

    def forward(self, batch):
        x, src, dst, e, owner, count = batch
        h = torch.relu(self.input(x))
        for s, n, b in zip(self.self_w, self.neighbour_w, self.bond_w):
            messages = n(h)[src] + b(e)
            h = torch.relu(s(h) + torch.zeros_like(h).index_add(0, dst, messages))
        summed = torch.zeros(count, HIDDEN, dtype=h.dtype).index_add(0, owner, h)
        # h >= 0 after relu, so a zero start leaves the maximum unchanged.
        index = owner.unsqueeze(1).expand(-1, HIDDEN)
        maxed = torch.zeros(count, HIDDEN, dtype=h.dtype).scatter_reduce(0, index, h, reduce="amax")
        z = torch.relu(self.readout(self.dropout(torch.cat([summed, maxed], dim=1))))
        return self.output(z)


def collate(items, dtype):
    xs, srcs, dsts, es, owners = [], [], [], [], []
    offset = 0
    for k, (atoms, bonds) in enumerate(items):
        xs.extend(atoms)
        owners.extend([k] * len(atoms))
        for a, b, f in bonds:
            srcs += [a + offset, b + offset]
            dsts += [b + offset, a + offset]
            es += [f, f]
        offset += len(atoms)
    return (torch.tensor(xs, dtype=dtype), torch.tensor(srcs, dtype=torch.long), torch.tensor(dsts, dtype=torch.long),
            torch.tensor(es, dtype=dtype).reshape(-1, graphs.BOND_FEATURES), torch.tensor(owners, dtype=torch.long),
            len(items))


def roc_auc(scores, labels):
    """Mann-Whitney ROC-AUC with tied scores sharing their mean rank."""
    scores, labels = np.asarray(scores, dtype=np.float64), np.asarray(labels)
    order = np.argsort(scores, kind="mergesort")
    ranks = np.empty(len(scores))
    sorted_scores = scores[order]
    i = 0
    while i < len(scores):
        j = i
        while j + 1 < len(scores) and sorted_scores[j + 1] == sorted_scores[i]:
            j += 1
        ranks[order[i:j + 1]] = (i + j) / 2 + 1
        i = j + 1
    positives = int(labels.sum())
    negatives = len(labels) - positives
    return float((ranks[labels == 1].sum() - positives * (positives + 1) / 2) / (positives * negatives))


def predict(model, items, dtype):
    model.eval()
    out = []
    with torch.no_grad():
        for start in range(0, len(items), 256):
            out.append(torch.sigmoid(model(collate(items[start:start + 256], dtype))).numpy())
    return np.concatenate(out)


def per_task_auc(probabilities, labels):
    aucs = []
    for t in range(len(TASKS)):
        known = ~np.isnan(labels[:, t])
        aucs.append(roc_auc(probabilities[known, t], labels[known, t]))
    return aucs


def seed_everything():
    random.seed(SEED)
    np.random.seed(SEED)
    torch.manual_seed(SEED)


def rounded_state(model):
    return {k: torch.tensor(np.array([float(f"{v:.{SIGNIFICANT}g}") for v in t.double().flatten().tolist()])
                            .reshape(t.shape)) for k, t in model.state_dict().items()}


def train(name, items, labels, codes):
    seed_everything()
    part = {c: [i for i, code in enumerate(codes) if code == c] for c in "tvs"}
    model = Gcn()
    optimiser = torch.optim.Adam(model.parameters(), lr=LEARNING_RATE)
    y = torch.tensor(labels, dtype=torch.float32)
    shuffle = np.random.RandomState(SEED)
    best, best_state, best_epoch, waited, epochs = -1.0, None, 0, 0, 0
    for epoch in range(1, MAX_EPOCHS + 1):
        model.train()
        order = shuffle.permutation(part["t"])
        for start in range(0, len(order), BATCH):
            rows = order[start:start + BATCH]
            logits = model(collate([items[i] for i in rows], torch.float32))
            target = y[rows]
            mask = ~torch.isnan(target)
            loss = torch.nn.functional.binary_cross_entropy_with_logits(logits[mask], target[mask])
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
        valid = float(np.mean(per_task_auc(predict(model, [items[i] for i in part["v"]], torch.float32),
                                           labels[part["v"]])))
        epochs = epoch
        print(f"{name} epoch {epoch}: mean valid ROC-AUC {valid:.4f}", file=sys.stderr, flush=True)
        if valid > best:
            best, best_epoch, waited = valid, epoch, 0
            best_state = {k: v.clone() for k, v in model.state_dict().items()}
        else:
            waited += 1
            if waited >= PATIENCE:
                break
    model.load_state_dict(best_state)
    # Every figure is measured in float64 on the weights as written (7 significant digits).
    final = Gcn().double()
    final.load_state_dict(rounded_state(model))
    figures = {}
    for c, key in (("v", "valid"), ("s", "test")):
        figures[key] = per_task_auc(predict(final, [items[i] for i in part[c]], torch.float64), labels[part[c]])
    counts = {key: {"rows": len(part[c]),
                    "positives": [int(np.nansum(labels[part[c], t])) for t in range(len(TASKS))],
                    "labelled": [int((~np.isnan(labels[part[c], t])).sum()) for t in range(len(TASKS))]}
              for c, key in (("t", "train"), ("v", "valid"), ("s", "test"))}
    return final, figures, {"best_epoch": best_epoch, "epochs_run": epochs, "counts": counts}


def weights_of(model):
    state = {k: v.double().numpy() for k, v in model.state_dict().items()}

    def dense(name):  # torch stores (out, in); the file stores (in, out) so x W reads left to right
        return state[name + ".weight"].T.tolist()

    return {
        "input": {"w": dense("input"), "b": state["input.bias"].tolist()},
        "layers": [{"self": dense(f"self_w.{i}"), "neighbour": dense(f"neighbour_w.{i}"),
                    "bond": dense(f"bond_w.{i}"), "b": state[f"self_w.{i}.bias"].tolist()} for i in range(LAYERS)],
        "readout": {"w": dense("readout"), "b": state["readout.bias"].tolist()},
        "output": {"w": dense("output"), "b": state["output.bias"].tolist()},
    }


def main():
    started = time.time()
    torch.set_num_threads(1)
    with open(os.path.join(DATA, "tox21.csv"), "rb") as handle:
        raw = handle.read()
    sha256 = hashlib.sha256(raw).hexdigest()
    rows = [r for r in csv.reader(raw.decode("utf-8").splitlines())][1:]
    rows = [r for r in rows if r]
    labels = np.array([[float(c) if c.strip() != "" else np.nan for c in r[1:13]] for r in rows])
    if len(sys.argv) > 1:  # an export made before (the same script's output)
        with open(sys.argv[1]) as handle:
            exported = json.load(handle)
    else:
        with tempfile.TemporaryDirectory(prefix="tox21-gcn-") as scratch:
            export = os.path.join(scratch, "parents.json")
            subprocess.run(["node", os.path.join(HERE, "export-tox21-parents.ts"), export], check=True)
            with open(export) as handle:
                exported = json.load(handle)
    parents = exported["parents"]
    assert len(parents) == len(rows)
    items, kept = [], []
    for i, p in enumerate(parents):
        g = graphs.graph_of(p["parent_smiles"]) if p["parent_smiles"] else None
        if g is not None:
            items.append(g)
            kept.append(i)
    print(f"{len(items)} of {len(rows)} parents featurised", file=sys.stderr)
    kept_labels = labels[kept]
    results, deployed = {}, None
    for split in ("random", "scaffold"):
        codes = [exported["splits"][split]["row_split"][i] for i in kept]
        model, figures, info = train(split, items, kept_labels, codes)
        fingerprint = {t["task"]: t for t in exported["fingerprint_model"][split]}
        results[split] = {
            "note": exported["splits"][split]["note"],
            **info,
            "gcn": {"valid_roc_auc": figures["valid"], "test_roc_auc": figures["test"],
                    "mean_valid_roc_auc": float(np.mean(figures["valid"])),
                    "mean_test_roc_auc": float(np.mean(figures["test"]))},
            "fingerprint_model": {
                "valid_roc_auc": [fingerprint[t]["valid_roc_auc"] for t in TASKS],
                "test_roc_auc": [fingerprint[t]["test_roc_auc"] for t in TASKS],
                "mean_valid_roc_auc": float(np.mean([fingerprint[t]["valid_roc_auc"] for t in TASKS])),
                "mean_test_roc_auc": float(np.mean([fingerprint[t]["test_roc_auc"] for t in TASKS])),
            },
        }
        if split == "random":
            deployed = model
    scaffold = results["scaffold"]
    adopted = ["gcn" if g > f else "fingerprint_model" for g, f in
               zip(scaffold["gcn"]["valid_roc_auc"], scaffold["fingerprint_model"]["valid_roc_auc"])]
    elapsed = round(time.time() - started)
    common = {
        "model": MODEL_ID,
        "training_data": "tox21.csv",
        "training_data_sha256": sha256,
        "seed": SEED,
        "rdkit_version_training": rdBase.rdkitVersion,
        "rdkit_version_parents": exported["rdkit_version"],
    }
    model_file = {
        "generated_by": "packages/science/scripts/train-tox21-gcn.py",
        **common,
        "split": "random (data/tox21-fingerprint-model.json row_split): trained on t, early-stopped on v",
        "architecture": {"atom_features": graphs.ATOM_FEATURES, "bond_features": graphs.BOND_FEATURES,
                         "hidden": HIDDEN, "layers": LAYERS, "readout": READOUT, "gather": "sum+max"},
        "featurisation": {"elements": graphs.ELEMENTS, "max_degree": graphs.MAX_DEGREE, "max_hs": graphs.MAX_HS},
        "tasks": TASKS,
        "weights": weights_of(deployed),
    }
    figures_file = {
        "generated_by": "packages/science/scripts/train-tox21-gcn.py",
        **common,
        "training": {"optimiser": "Adam", "learning_rate": LEARNING_RATE, "batch": BATCH, "dropout": DROPOUT,
                     "max_epochs": MAX_EPOCHS, "patience": PATIENCE, "early_stopping": "mean valid ROC-AUC",
                     "threads": 1, "seconds": elapsed, "torch_version": torch.__version__},
        "parents_featurised": len(items),
        "rows": len(rows),
        "tasks": TASKS,
        "moleculenet_graphconv_mean_test_roc_auc": MOLECULENET_GRAPHCONV,
        "splits": results,
        "adopted": dict(zip(TASKS, adopted)),
        "adoption_rule": "per assay, the model with the higher ROC-AUC on the scaffold split's validation rows",
    }

    def rounded(value):
        if isinstance(value, float):
            return float(f"{value:.6g}")
        if isinstance(value, list):
            return [rounded(v) for v in value]
        if isinstance(value, dict):
            return {k: rounded(v) for k, v in value.items()}
        return value

    with open(os.path.join(DATA, "tox21-gcn-model.json"), "w") as out:
        out.write(json.dumps(model_file, separators=(",", ":")) + "\n")
    with open(os.path.join(DATA, "tox21-gcn-figures.json"), "w") as out:
        out.write(json.dumps(rounded(figures_file), indent=1) + "\n")
    print(f"done in {elapsed} s: random test {results['random']['gcn']['mean_test_roc_auc']:.3f}, "
          f"scaffold test {scaffold['gcn']['mean_test_roc_auc']:.3f}", file=sys.stderr)


main()
