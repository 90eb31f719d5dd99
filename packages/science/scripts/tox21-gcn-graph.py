"""The gcn_toxicity graph: atom and bond features from native RDKit, and the forward pass over the
weights file, in float64 NumPy. Shared by scripts/train-tox21-gcn.py (training) and
test/native/tox21-gcn.py (the reference the TypeScript featuriser and forward pass are compared with;
src/gnn/gcn-features.ts and src/gnn/gcn-forward.ts must compute exactly this).

Features are limited to what RDKit WebAssembly's molecule JSON states (element, hydrogens, charge,
aromatic atoms and bonds, bond orders, rings), so the run-time featuriser reads the same facts RDKit
computed rather than re-deriving hybridisation or conjugation. Loaded with importlib (the file name is
kebab-case like every script here).
"""
import numpy as np
from rdkit import Chem

# Element one-hot: the drug-like set, then B, Si, Se; anything else is "other" (last column).
ELEMENTS = [6, 7, 8, 9, 15, 16, 17, 35, 53, 5, 14, 34]
MAX_DEGREE = 5  # heavy-atom (graph) neighbours 0..5, 5 meaning 5 or more
MAX_HS = 4  # total hydrogens 0..4, 4 meaning 4 or more
ATOM_FEATURES = len(ELEMENTS) + 1 + (MAX_DEGREE + 1) + (MAX_HS + 1) + 3 + 2
BOND_FEATURES = 5  # single, double, triple, aromatic, in ring


def atom_features(atom):
    row = [0.0] * ATOM_FEATURES
    z = atom.GetAtomicNum()
    row[ELEMENTS.index(z) if z in ELEMENTS else len(ELEMENTS)] = 1.0
    at = len(ELEMENTS) + 1
    row[at + min(atom.GetDegree(), MAX_DEGREE)] = 1.0
    at += MAX_DEGREE + 1
    row[at + min(atom.GetTotalNumHs(includeNeighbors=True), MAX_HS)] = 1.0
    at += MAX_HS + 1
    charge = atom.GetFormalCharge()
    row[at + (0 if charge < 0 else 1 if charge == 0 else 2)] = 1.0
    at += 3
    row[at] = 1.0 if atom.GetIsAromatic() else 0.0
    row[at + 1] = 1.0 if atom.IsInRing() else 0.0
    return row


def bond_features(bond):
    row = [0.0] * BOND_FEATURES
    if bond.GetIsAromatic():
        row[3] = 1.0
    else:
        order = bond.GetBondType()
        if order == Chem.BondType.SINGLE:
            row[0] = 1.0
        elif order == Chem.BondType.DOUBLE:
            row[1] = 1.0
        elif order == Chem.BondType.TRIPLE:
            row[2] = 1.0
    row[4] = 1.0 if bond.IsInRing() else 0.0
    return row


def graph_of(smiles):
    """(atom feature rows, bonds as (begin, end, feature row)) of a SMILES, or None if RDKit refuses it."""
    mol = Chem.MolFromSmiles(smiles)
    if mol is None or mol.GetNumAtoms() == 0:
        return None
    return graph_of_mol(mol)


def graph_of_mol(mol):
    """(atom feature rows, bonds as (begin, end, feature row)) of an RDKit molecule."""
    atoms = [atom_features(atom) for atom in mol.GetAtoms()]
    bonds = [(b.GetBeginAtomIdx(), b.GetEndAtomIdx(), bond_features(b)) for b in mol.GetBonds()]
    return atoms, bonds


def relu(x):
    return np.maximum(x, 0.0)


def as_arrays(weights):
    """The weights dict with every list made a float64 array once (forward then copies nothing)."""
    if isinstance(weights, dict):
        return {k: as_arrays(v) for k, v in weights.items()}
    if isinstance(weights, list) and weights and isinstance(weights[0], dict):
        return [as_arrays(v) for v in weights]
    return np.asarray(weights, dtype=np.float64)


def forward(weights, graph):
    """The twelve probabilities of one graph, float64, from a weights dict as the model file holds it."""
    atoms, bonds = graph
    x = np.array(atoms, dtype=np.float64)
    h = relu(x @ np.asarray(weights["input"]["w"]) + np.asarray(weights["input"]["b"]))
    src = np.array([b[0] for b in bonds] + [b[1] for b in bonds], dtype=np.int64)
    dst = np.array([b[1] for b in bonds] + [b[0] for b in bonds], dtype=np.int64)
    e = np.array([b[2] for b in bonds] * 2, dtype=np.float64).reshape(-1, BOND_FEATURES)
    for layer in weights["layers"]:
        messages = h[src] @ np.asarray(layer["neighbour"]) + e @ np.asarray(layer["bond"])
        gathered = np.zeros_like(h)
        np.add.at(gathered, dst, messages)
        h = relu(h @ np.asarray(layer["self"]) + gathered + np.asarray(layer["b"]))
    pooled = np.concatenate([h.sum(axis=0), h.max(axis=0)])
    z = relu(pooled @ np.asarray(weights["readout"]["w"]) + np.asarray(weights["readout"]["b"]))
    logits = z @ np.asarray(weights["output"]["w"]) + np.asarray(weights["output"]["b"])
    return 1.0 / (1.0 + np.exp(-logits))
