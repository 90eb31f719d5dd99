import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { loadRDKit, parseSmiles } from "../rdkit.ts";
import { brenkAlerts } from "./brenk-catalog.ts";
import { nibrFilters } from "./nibr-catalog.ts";
import { painsPatterns } from "./pains-catalog.ts";
import { cachedNibrAlerts, findStructuralAlerts } from "./structural-alerts.ts";

describe("PAINS, NIBR and Brenk alerts against native RDKit", () => {
  it("reads 480 PAINS patterns split 16/55/409 into families A/B/C, and 444 NIBR filters", () => {
    const families = { A: 0, B: 0, C: 0 };
    for (const p of painsPatterns()) families[p.family]++;
    assert.deepEqual(families, { A: 16, B: 55, C: 409 });
    const severities = { EXCLUDE: 0, FLAG: 0, ANNOTATION: 0 };
    for (const f of nibrFilters()) severities[f.severity]++;
    assert.deepEqual(severities, { EXCLUDE: 260, FLAG: 77, ANNOTATION: 107 });
    const brenk = brenkAlerts();
    assert.equal(brenk.length, 105);
    assert.equal(new Set(brenk.map((a) => a.name)).size, 105);
  });

  it("finds Brenk's Michael acceptor and aldehyde on cinnamaldehyde, keyed brenk:<name> in alert_atoms", async () => {
    const rdkit = await loadRDKit();
    const parsed = parseSmiles(rdkit, "O=C/C=C/c1ccccc1");
    assert.ok("mol" in parsed);
    try {
      const alerts = findStructuralAlerts(rdkit, parsed.mol);
      assert.ok(alerts.brenk.includes("aldehyde"), `Brenk hits: ${alerts.brenk.join(", ")}`);
      assert.ok(alerts.brenk.includes("Michael_acceptor_1"), `Brenk hits: ${alerts.brenk.join(", ")}`);
      assert.deepEqual(alerts.alert_atoms["brenk:aldehyde"], [0, 1]);
    } finally {
      parsed.mol.delete();
    }
  });

  it("finds a published PAINS example (an ene_rhod, 5-benzylidene rhodanine) with its atoms", async () => {
    const rdkit = await loadRDKit();
    const parsed = parseSmiles(rdkit, "O=C1NC(=S)SC1=Cc1ccccc1");
    assert.ok("mol" in parsed);
    try {
      const alerts = findStructuralAlerts(rdkit, parsed.mol);
      const rhodanine = alerts.pains.find((name) => name.startsWith("ene_rhod"));
      assert.ok(rhodanine, `PAINS hits: ${alerts.pains.join(", ")}`);
      const atoms = alerts.alert_atoms[rhodanine] ?? [];
      assert.ok(atoms.length >= 7 && atoms.every((atom) => atom < parsed.mol.get_num_atoms()));
    } finally {
      parsed.mol.delete();
    }
  });
});

// Issue 42 item 2: toxicity_profile and manufacturability_audit read the NIBR filters of one shared parent.
describe("the NIBR filters of one parent molecule", () => {
  it("are computed once per Mol handle without re-writing its SMILES, and afresh for another handle", async () => {
    const rdkit = await loadRDKit();
    const read = () => {
      const parsed = parseSmiles(rdkit, "O=CC=Cc1ccccc1");
      assert.ok("mol" in parsed);
      return parsed.mol;
    };
    const mol = read();
    const other = read();
    let smilesWritten = 0;
    const original = mol.get_smiles.bind(mol);
    Object.defineProperty(mol, "get_smiles", {
      value: (...args: Parameters<typeof original>) => {
        smilesWritten++;
        return original(...args);
      },
    });
    try {
      const first = cachedNibrAlerts(rdkit, mol);
      assert.equal(cachedNibrAlerts(rdkit, mol), first);
      assert.equal(smilesWritten, 0);
      const fresh = cachedNibrAlerts(rdkit, other);
      assert.notEqual(fresh, first);
      assert.deepEqual(fresh, first);
    } finally {
      mol.delete();
      other.delete();
    }
  });
});
