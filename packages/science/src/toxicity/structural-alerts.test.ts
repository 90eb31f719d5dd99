import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import {
  assertNativeInCi,
  eachParsedWithNative,
  NCI_5K,
  nativeMissing,
  readNci,
  runNative,
} from "../../test/support/native-rdkit.ts";
import { loadRDKit, parseSmiles } from "../rdkit.ts";
import { brenkAlerts } from "./brenk-catalog.ts";
import { nibrFilters } from "./nibr-catalog.ts";
import { painsPatterns } from "./pains-catalog.ts";
import { findBrenkAlerts, findStructuralAlerts } from "./structural-alerts.ts";

// Every 4th NCI molecule (1,250 of 4,999): native RDKit's unscreened FilterCatalog needs ~50 s of
// CPU for all 4,999 on this 2-core machine, beyond the CI budget of a reference test.
const EVERY = 4;

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

  assertNativeInCi();
  it(`per-molecule hit sets equal native FilterCatalog on ≥ 99.5% of every ${EVERY}th NCI molecule`, {
    skip: nativeMissing ?? false,
  }, async () => {
    const rdkit = await loadRDKit();
    const nibrCsv = fileURLToPath(new URL("../../data/nibr-substructure-filters.csv", import.meta.url));
    const native = runNative<Record<string, { pains: string[]; brenk: string[]; nibr: string[] }>>(
      "filter-catalog.py",
      [NCI_5K, nibrCsv, String(EVERY)],
    );
    const molecules = readNci(readFileSync(NCI_5K, "utf8")).filter((_, index) => index % EVERY === 0);
    let painsSame = 0;
    let nibrSame = 0;
    let brenkSame = 0;
    let painsPositives = 0;
    let brenkPositives = 0;
    const brenkDiffers: string[] = [];
    const compared = eachParsedWithNative(rdkit, molecules, native, (mol, expected, id) => {
      const alerts = findStructuralAlerts(rdkit, mol);
      if (expected.pains.length > 0) painsPositives++;
      if (expected.brenk.length > 0) brenkPositives++;
      if (JSON.stringify([...alerts.pains].sort()) === JSON.stringify(expected.pains)) painsSame++;
      const nibr = alerts.nibr.map((hit) => hit.name).sort();
      if (JSON.stringify(nibr) === JSON.stringify(expected.nibr)) nibrSame++;
      const brenk = JSON.stringify([...alerts.brenk].sort());
      if (brenk === JSON.stringify(expected.brenk)) brenkSame++;
      else brenkDiffers.push(`${id}: ours ${brenk}, native ${JSON.stringify(expected.brenk)}`);
    });
    assert.ok(compared >= 1200, `compared ${compared}`);
    assert.ok(painsPositives >= 50, `only ${painsPositives} molecules with a native PAINS hit`);
    assert.ok(brenkPositives >= 300, `only ${brenkPositives} molecules with a native Brenk hit`);
    const share = (same: number) => same / compared;
    assert.ok(share(painsSame) >= 0.995, `PAINS identical for ${painsSame}/${compared}`);
    assert.ok(share(nibrSame) >= 0.995, `NIBR identical for ${nibrSame}/${compared}`);
    assert.ok(
      share(brenkSame) >= 0.995,
      `Brenk identical for ${brenkSame}/${compared}: ${brenkDiffers.join("; ")}`,
    );
    console.log(
      `# PAINS identical ${painsSame}/${compared}, NIBR identical ${nibrSame}/${compared}, ` +
        `Brenk identical ${brenkSame}/${compared} (${brenkPositives} with a native Brenk hit)`,
    );
    for (const line of brenkDiffers) console.log(`# Brenk differs ${line}`);
  });
  it("Brenk hit sets equal native FilterCatalog BRENK on ≥ 99.5% of all NCI molecules", {
    skip: nativeMissing ?? false,
  }, async () => {
    const rdkit = await loadRDKit();
    const nibrCsv = fileURLToPath(new URL("../../data/nibr-substructure-filters.csv", import.meta.url));
    const native = runNative<Record<string, { brenk: string[] }>>("filter-catalog.py", [
      NCI_5K,
      nibrCsv,
      "1",
      "brenk",
    ]);
    let same = 0;
    const differs: string[] = [];
    const compared = eachParsedWithNative(
      rdkit,
      readNci(readFileSync(NCI_5K, "utf8")),
      native,
      (mol, expected, id) => {
        const ours = JSON.stringify([...findBrenkAlerts(rdkit, mol).brenk].sort());
        if (ours === JSON.stringify(expected.brenk)) same++;
        else differs.push(`${id}: ours ${ours}, native ${JSON.stringify(expected.brenk)}`);
      },
    );
    assert.ok(compared >= 4980, `compared ${compared}`);
    assert.ok(same / compared >= 0.995, `Brenk identical for ${same}/${compared}: ${differs.join("; ")}`);
    console.log(`# Brenk identical on all NCI: ${same}/${compared}`);
  });
});
