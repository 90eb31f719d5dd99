"""Native reference for metabolite_prediction's pairing of reaction products with atoms: for each
NCI molecule (the first argv[3] of argv[1]) and each rule of the JSON list in argv[2]
([{"id", "reaction"}]), RDKit's RunReactants (at most 40 product sets, as the module asks) and,
per product set, the reactant atom indices of the template atoms in map-number order, read from
the product atoms' `old_mapno` and `react_atom_idx` properties.

Prints {"<nci id>": {"<rule id>": [[atom, ...], ...]}} (rules without products omitted).
"""
import json
import sys

from rdkit import Chem, RDLogger
from rdkit.Chem import AllChem

RDLogger.DisableLog("rdApp.*")
rules = [(r["id"], AllChem.ReactionFromSmarts(r["reaction"])) for r in json.load(open(sys.argv[2]))]
for _, rxn in rules:
    rxn.Initialize()
limit = int(sys.argv[3])

out = {}
count = 0
for line in open(sys.argv[1]):
    parts = line.split()
    if len(parts) < 2:
        continue
    mol = Chem.MolFromSmiles(parts[0])
    if mol is None:
        continue
    count += 1
    if count > limit:
        break
    per_rule = {}
    for rule_id, rxn in rules:
        sets = []
        for products in rxn.RunReactants((mol,), 40):
            mapped = {}
            for product in products:
                for atom in product.GetAtoms():
                    if atom.HasProp("old_mapno") and atom.HasProp("react_atom_idx"):
                        mapped[atom.GetIntProp("old_mapno")] = atom.GetIntProp("react_atom_idx")
            sets.append([mapped[k] for k in sorted(mapped)])
        if sets:
            per_rule[rule_id] = sets
    out[parts[1]] = per_rule
print(json.dumps(out))
