"""The per-compound steps of @svc/science's modules, with native RDKit (Debian python3-rdkit).

One home for the native anchor of two benchmarks: bench/science.bench.ts times `analyse` alone,
bench/runner.bench.ts runs it after its own preparation of each compound, so both compare the
TypeScript/WebAssembly side with native RDKit doing the same steps: parent (salts stripped,
largest fragment), stereo, PAINS + NIBR + Brenk alerts, QED, the ESOL descriptors, the solubility network and ridge on the RDKit
2D descriptor row with its training parents' Tanimoto domain, rule counts, manufacturability counts, the SA score (RDKit Contrib sascorer), the 13
metabolism reactions, Morgan fingerprints scanned against the Tox21, ClinTox and Delaney reference
sets, the fingerprint models' dot products, and the logD7.4 model's Tanimoto-kernel sum over its
3,360 Lipophilicity training rows, and gcn_toxicity's graph features and forward pass (NumPy). The values are computed and dropped: only the work
is measured (the validations against native RDKit live in the science package's tests).
"""
import csv
import importlib.util
import json
import sys

import numpy as np
from rdkit import Chem, DataStructs, RDLogger
from rdkit.Chem import AllChem, Crippen, Descriptors, FilterCatalog, Lipinski, QED
from rdkit.Chem import rdMolDescriptors as rd
from rdkit.Chem.SaltRemover import SaltRemover

RDLogger.DisableLog("rdApp.*")


def load(data, reactions_path):
    """Reads the science package's data (its `data/` folder, ending in /) and returns `analyse(smiles)`."""
    remover = SaltRemover(defnFilename=data + "rdkit-salts.txt")
    params = FilterCatalog.FilterCatalogParams()
    params.AddCatalog(FilterCatalog.FilterCatalogParams.FilterCatalogs.PAINS)
    pains = FilterCatalog.FilterCatalog(params)
    brenk_params = FilterCatalog.FilterCatalogParams()
    brenk_params.AddCatalog(FilterCatalog.FilterCatalogParams.FilterCatalogs.BRENK)
    brenk = FilterCatalog.FilterCatalog(brenk_params)
    nibr = FilterCatalog.FilterCatalog()
    for r in csv.DictReader(open(data + "nibr-substructure-filters.csv")):
        matcher = FilterCatalog.SmartsMatcher(r["PATTERN_NAME"], r["SMARTS"], int(r["MIN_COUNT"]) or 1)
        nibr.AddEntry(FilterCatalog.FilterCatalogEntry(r["PATTERN_NAME"], matcher))
    sys.path.insert(0, "/usr/share/RDKit/Contrib/SA_Score")
    import sascorer

    sascorer.readFragmentScores()
    # Solubility: the adopted network (Morgan on-bits + the RDKit 2D descriptor row, one hidden
    # ReLU layer), the ridge on the same row and the training parents' Tanimoto domain.
    sol = json.load(open(data + "solubility-models.json"))
    sol_props = rd.Properties(sol["descriptors"])
    net, ridge = sol["network"], sol["ridge"]
    mlp = net["mlp"]
    hidden = mlp["hidden"]
    w1 = np.array(mlp["w1"]).reshape(-1, hidden)
    b1, w2 = np.array(mlp["b1"]), np.array(mlp["w2"])
    net_mean, net_scale = np.array(net["mean"]), np.array(net["scale"])
    ridge_mean, ridge_scale = np.array(ridge["mean"]), np.array(ridge["scale"])
    ridge_w = np.array(ridge["weights"])
    reactions = [AllChem.ReactionFromSmarts(r) for r in json.load(open(reactions_path))]

    def bits(h):
        v = DataStructs.ExplicitBitVect(2048)
        v.SetBitsFromList([int(h[i : i + 3], 16) for i in range(0, len(h), 3)])
        return v

    tox = json.load(open(data + "tox21-fingerprint-model.json"))
    ct = json.load(open(data + "clintox-fingerprint-model.json"))
    refs = [[bits(b) for b, p in zip(f["row_bits"], f["row_split"]) if p in "tv"] for f in (tox, ct)]
    approved = zip(ct["row_bits"], csv.DictReader(open(data + "clintox.csv")))
    refs.append([bits(b) for b, r in approved if r["FDA_APPROVED"] == "1"])
    refs.append([bits(b) for b in sol["training_bits"]])
    # target_biology_risk: the DrugCentral drugs acting on a safety-panel target.
    refs.append([bits(d["bits"]) for d in json.load(open(data + "drugcentral-safety-index.json"))["drugs"]])
    # offtarget_screening: every DrugCentral drug with a target; the 5 nearest lend their targets.
    target_index = json.load(open(data + "drugcentral-target-index.json"))["drugs"]
    dc_ref = [bits(d["bits"]) for d in target_index]
    dc_targets = [d["targets"] for d in target_index]
    tasks = tox["tasks"] + ct["tasks"]
    logd = json.load(open(data + "lipo-logd-model.json"))
    logd_ref = [bits(b) for b, p in zip(logd["row_bits"], logd["row_split"]) if p == "t"]
    logd_alpha = np.array(logd["alpha"])
    # gcn_toxicity: the same features and float64 forward pass as the training script's reference.
    spec = importlib.util.spec_from_file_location("tox21_gcn_graph", data + "../scripts/tox21-gcn-graph.py")
    gcn = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gcn)
    gcn_weights = gcn.as_arrays(json.load(open(data + "tox21-gcn-model.json"))["weights"])

    def products(parent):
        for rxn in reactions:
            for product_set in rxn.RunReactants((parent,), 40):
                for p in product_set:
                    Chem.MolFromSmiles(Chem.MolToSmiles(p))

    def analyse(smi):
        mol = Chem.MolFromSmiles(smi)
        if mol is None or mol.GetNumAtoms() == 0:
            return False
        parent = remover.StripMol(mol, dontRemoveEverything=True)
        frags = Chem.GetMolFrags(parent, asMols=True)
        parent = max(frags, key=lambda f: f.GetNumHeavyAtoms())
        Chem.AssignStereochemistry(parent, cleanIt=True, force=True)
        Chem.MolToSmiles(parent)
        pains.GetMatches(Chem.AddHs(parent))
        nibr.GetMatches(parent)
        brenk.GetMatches(parent)
        QED.qed(parent)
        ha = parent.GetNumHeavyAtoms() or 1
        d = [Crippen.MolLogP(parent), Descriptors.MolWt(parent),
             rd.CalcNumRotatableBonds(parent, rd.NumRotatableBondsOptions.Strict),
             sum(a.GetIsAromatic() for a in parent.GetAtoms()) / ha, rd.CalcTPSA(parent), rd.CalcNumHBD(parent),
             rd.CalcNumHBA(parent), rd.CalcFractionCSP3(parent), rd.CalcNumAromaticRings(parent), Crippen.MolMR(parent),
             rd.CalcNumRings(parent), ha, rd.CalcLabuteASA(parent), rd.CalcNumHeteroatoms(parent)]
        dense = np.array(sol_props.ComputeProperties(parent))
        x = np.clip((dense - net_mean) / net_scale, -6, 6)
        on_sol = list(AllChem.GetMorganFingerprintAsBitVect(parent, 2, nBits=2048).GetOnBits())
        h = b1 + w1[on_sol].sum(0) + x @ w1[2048:]
        float(mlp["b2"] + np.maximum(h, 0) @ w2)
        float(ridge["intercept"] + np.clip((dense - ridge_mean) / ridge_scale, -6, 6) @ ridge_w)
        Lipinski.NOCount(parent)
        Lipinski.NHOHCount(parent)
        Chem.AddHs(parent).GetNumAtoms()
        rd.CalcNumAtomStereoCenters(parent)
        rd.CalcNumUnspecifiedAtomStereoCenters(parent)
        rd.CalcNumSpiroAtoms(parent)
        rd.CalcNumBridgeheadAtoms(parent)
        parent.GetRingInfo().AtomRings()
        sascorer.calculateScore(parent)
        products(parent)
        fp = AllChem.GetMorganFingerprintAsBitVect(parent, 2, nBits=2048)
        on = list(fp.GetOnBits())
        for ref in refs:
            max(DataStructs.BulkTanimotoSimilarity(fp, ref))
        for t in tasks:
            t["bias"] + sum(t["weights"][b] for b in on)
        dc_sims = np.array(DataStructs.BulkTanimotoSimilarity(fp, dc_ref))
        {t for i in np.argsort(-dc_sims, kind="stable")[:5] for t in dc_targets[i]}
        logd_sims = np.array(DataStructs.BulkTanimotoSimilarity(fp, logd_ref))
        float(logd_sims @ logd_alpha)
        logd_sims.max()
        gcn.forward(gcn_weights, gcn.graph_of_mol(parent))
        return True

    return analyse
