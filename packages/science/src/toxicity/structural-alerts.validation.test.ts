import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { ALERTS_EVERY, storedNative } from "../../test/support/native-oracles.ts";
import {
  assertNciInCi,
  eachParsedWithNative,
  NCI_5K,
  nciMissing,
  readNci,
} from "../../test/support/nci-set.ts";
import { loadRDKit } from "../rdkit.ts";
import { findBrenkAlerts, findStructuralAlerts } from "./structural-alerts.ts";

// Every 4th NCI molecule (1,250 of 4,999): native RDKit's unscreened FilterCatalog needs ~50 s of
// CPU for all 4,999 on this 2-core machine, beyond the CI budget of a reference test.

describe("PAINS, NIBR and Brenk alerts against native RDKit", () => {
  assertNciInCi();
  it(`per-molecule hit sets equal native FilterCatalog on ≥ 99.5% of every ${ALERTS_EVERY}th NCI molecule`, {
    skip: nciMissing ?? false,
  }, async () => {
    const rdkit = await loadRDKit();
    const native = storedNative<{ pains: string[]; brenk: string[]; nibr: string[] }>("filter-catalog");
    const molecules = readNci(readFileSync(NCI_5K, "utf8")).filter((_, index) => index % ALERTS_EVERY === 0);
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
    skip: nciMissing ?? false,
  }, async () => {
    const rdkit = await loadRDKit();
    const native = storedNative<{ brenk: string[] }>("filter-catalog-brenk");
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
