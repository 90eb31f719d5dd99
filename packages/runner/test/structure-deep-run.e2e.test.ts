import assert from "node:assert/strict";
import { copyFile, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, test } from "node:test";
import { parseCsv } from "@svc/testing";
import { entitlementForFile } from "./support/entitlement-harness.ts";
import { REPO } from "./support/run-cli.ts";
import { readJson } from "./support/run-folder.ts";
import { stageWithPortfolio } from "./support/stage-portfolio.ts";

// Issue 40's Done when: a deep run of the structure demo executes the physics modules and the report
// shows each per compound (a card panel and report.csv columns). One small compound keeps it bounded:
// deep docking alone is exhaustiveness 32 into 7 receptors (with the 1S3V crystal ligand and a decoy the
// run took over an hour on the loaded 2-core machine).
const stand = entitlementForFile("structure-deep@example.com", 1, "deep");
const DEMO = join(REPO, "examples", "structure-demo", "01_sources");
const RECEPTOR = "1s3v_protein_one_lig_removed.pdb";
const LIGAND = "1s3v_ligand.sdf";
const PORTFOLIO = `candidate_id,name,smiles
DHFR-008,ibuprofen,CC(C)Cc1ccc(C(C)C(=O)O)cc1
`;
/** The deep-profile physics modules, each executed with a record per docked compound. */
const PHYSICS = [
  "physics_audit",
  "quantum_target_audit",
  "physics_binding",
  "qmmm_analysis",
  "interaction_stability",
  "advanced_comp_chem_summary",
];

describe("a deep run of the structure demo", () => {
  test("executes the physics modules on the docked compounds and shows each per compound in the card and report.csv", {
    timeout: 2_700_000,
  }, async (t) => {
    const staged = await stageWithPortfolio(PORTFOLIO, t);
    const sources = join(staged.projectDir, "01_sources");
    await copyFile(join(DEMO, RECEPTOR), join(sources, RECEPTOR));
    await copyFile(join(DEMO, LIGAND), join(sources, LIGAND));
    const names = JSON.parse(await readFile(join(sources, "sources.json"), "utf8"));
    await writeFile(
      join(sources, "sources.json"),
      JSON.stringify({ ...names, pdbs: [{ file: RECEPTOR, ligand: LIGAND, target: "DHFR" }] }),
    );
    const result = await stand.run(staged, "run_structure_deep", ["--mode", "deep"]);
    assert.equal(result.code, 0, result.stderr);
    const runDir = join(staged.outputRoot, "run_structure_deep");
    const plan = await readJson(join(runDir, "plans/run_structure_deep_module_plan.json"));
    const csv = parseCsv(await readFile(join(runDir, "results", "report.csv"), "utf8"));
    const header = csv[0] ?? [];
    const html = await readFile(join(runDir, "results", "report.html"), "utf8");
    for (const id of PHYSICS) {
      const entry = plan.modules.find((m: { module_id: string }) => m.module_id === id);
      assert.equal(entry?.outcome, "executed", `${id}: ${JSON.stringify(entry)}`);
      const file = await readJson(join(runDir, "results", `${id}.json`));
      const records = file.structures[0].compounds as {
        candidate_id: string;
        status: string;
        reason: string;
      }[];
      const record = records.find((entry) => entry.candidate_id === "DHFR-008");
      assert.ok(record !== undefined, `${id} has a record for DHFR-008`);
      assert.notEqual(record.status, "not_assessed", `${id}: ${record.reason}`);
      assert.ok(
        header.some((column) => column.startsWith(`${id}.`)),
        `report.csv has ${id}'s columns: ${header.filter((c) => c.includes("physics")).join(", ")}`,
      );
      assert.match(html, new RegExp(`${id}`), `the report shows ${id}`);
    }
  });
});
