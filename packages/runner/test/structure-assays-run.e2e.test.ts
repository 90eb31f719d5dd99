import assert from "node:assert/strict";
import { copyFile, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, test } from "node:test";
import { entitlementForFile } from "./support/entitlement-harness.ts";
import { REPO } from "./support/run-cli.ts";
import { readJson } from "./support/run-folder.ts";
import { stageWithPortfolio } from "./support/stage-portfolio.ts";

// Issue 37 items 1 and 4: a chemist stages measured potencies AND a receptor. Before, the run went
// to SMALL_MOLECULE__HAS_LABELED_ASSAYS, where docking is disabled, and dropped the structure after
// the charge. Now it docks, sar_explorer still reads the assays, and the potency orders the list.
// Two compounds keep the docking short: the 1S3V crystal ligand (TQD) and a decoy. The pIC50 values
// are this test's own fixture, not measurements: they only have to differ.
const stand = entitlementForFile("structure-assays@example.com", 1);
const DEMO = join(REPO, "examples", "structure-demo", "01_sources");
const RECEPTOR = "1s3v_protein_one_lig_removed.pdb";
const LIGAND = "1s3v_ligand.sdf";
const PORTFOLIO = `candidate_id,name,smiles
DHFR-001,TQD,COc1cc(N(C)CC2CCc3nc(N)nc(N)c3C2)cc(OC)c1OC
DHFR-008,ibuprofen,CC(C)Cc1ccc(C(C)C(=O)O)cc1
`;
const ASSAYS = "candidate_id,assay_id,p_activity\nDHFR-001,DHFR_IC50,8.5\nDHFR-008,DHFR_IC50,4.0\n";

describe("assays and a structure staged together", () => {
  test("the run docks in the structure category, sar_explorer reads the assays, and the lead sentence names the measured potency that moved it", async (t) => {
    const staged = await stageWithPortfolio(PORTFOLIO, t, { assays_csv: ["assays.csv", ASSAYS] });
    const sources = join(staged.projectDir, "01_sources");
    await copyFile(join(DEMO, RECEPTOR), join(sources, RECEPTOR));
    await copyFile(join(DEMO, LIGAND), join(sources, LIGAND));
    const names = JSON.parse(await readFile(join(sources, "sources.json"), "utf8"));
    await writeFile(
      join(sources, "sources.json"),
      JSON.stringify({ ...names, pdbs: [{ file: RECEPTOR, ligand: LIGAND, target: "DHFR" }] }),
    );
    const result = await stand.run(staged, "run_structure_assays");
    assert.equal(result.code, 0, result.stderr);
    const runDir = join(staged.outputRoot, "run_structure_assays");
    const summary = await readJson(join(runDir, "results/summary.json"));
    assert.equal(summary.category_id, "SMALL_MOLECULE__STRUCTURE_PRESENT__NO_MD_TRAJ");
    const docking = await readJson(join(runDir, "results/molecular_docking.json"));
    const docked = docking.structures[0].compounds.filter((c: { status: string }) => c.status === "docked");
    assert.equal(docked.length, 2, JSON.stringify(docking.structures[0].compounds));
    const sar = await readJson(join(runDir, "raw/sar_explorer_raw.json"));
    assert.equal(sar.status, "executed", sar.reason);
    assert.equal(sar.result.summary.with_activities, 2);
    const html = await readFile(join(runDir, "results/report.html"), "utf8");
    const lead = /id="why-first">([^<]*)/.exec(html)?.[1] ?? "";
    assert.match(lead, /^#1 DHFR-001 \(TQD\) is first/);
    assert.match(lead, /moved by measured potency pActivity 8\.5 \(assays_csv\)/);
    // The docking score moves a compound only when its pose passed its checks (a broken pose earns nothing).
    const tqd = docking.structures[0].compounds.find(
      (c: { candidate_id: string }) => c.candidate_id === "DHFR-001",
    );
    if (tqd.pose_checks.passed)
      assert.match(lead, /docking score \(pdbs\[0\]\) best Vina score -\d+(\.\d+)? kcal\/mol/);
    else assert.doesNotMatch(lead, /docking score/, `failed pose checks: ${tqd.pose_checks.failed}`);
    assert.equal(summary.claim_strength, "SUPPORTED", JSON.stringify(summary.claim_reasons));
  });
});
