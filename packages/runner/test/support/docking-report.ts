import { cp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { CrypticPocketsResultFile, DockingResultFile } from "@svc/core";
import { makeTempDir, type TempDirOwner } from "@svc/testing";
import { parseDockingResult } from "../../src/outputs/docking-result-file.ts";
import { REPORT_DEFAULTS } from "../../src/outputs/report/report-options.ts";
import { ReportWriter } from "../../src/outputs/report/report-writer.ts";
import type { RunFacts } from "../../src/outputs/run-facts.ts";
import { buildModulePlan, countPlan } from "../../src/plan/module-plan.ts";
import { CATEGORY, loadPolicy } from "../../src/plan/policy.ts";
import { REPO } from "./run-cli.ts";

/** A real molecular_docking result (test/fixtures/docking/README.md says how it was made). */
export const DOCKING_FIXTURE = join(import.meta.dirname, "..", "fixtures", "docking");
/** The receptor the fixture was docked into (the structure demo's). */
export const DOCKING_RECEPTOR = join(
  REPO,
  "examples",
  "structure-demo",
  "01_sources",
  "1s3v_protein_one_lig_removed.pdb",
);

/** A real cryptic_pockets result over 1S3V and 1IA1 (test/fixtures/cryptic-pockets/README.md says how it was made). */
export const CRYPTIC_POCKETS_FIXTURE = join(import.meta.dirname, "..", "fixtures", "cryptic-pockets");

/**
 * The report of a run folder holding the docking fixture's results/ (molecular_docking.json and its
 * poses), written by the real ReportWriter for the fixture's three compounds, with no other module's
 * findings and no RDKit drawings; with `crypticPockets`, that file as results/cryptic_pockets.json
 * too. Returns the run folder and the page and CSV it wrote.
 */
export async function writeDockingReport(
  owner: TempDirOwner,
  mode: "standard" | "deep" = "standard",
  crypticPockets?: CrypticPocketsResultFile,
) {
  const runDir = await makeTempDir("docking-report-", owner);
  await cp(join(DOCKING_FIXTURE, "results"), join(runDir, "results"), { recursive: true });
  if (crypticPockets !== undefined)
    await writeFile(join(runDir, "results", "cryptic_pockets.json"), JSON.stringify(crypticPockets));
  if (mode === "deep") {
    const path = join(runDir, "results", "molecular_docking.json");
    await writeFile(
      path,
      JSON.stringify(deepVariant(parseDockingResult(JSON.parse(await readFile(path, "utf8"))))),
    );
  }
  const rows = (await readFile(join(DOCKING_FIXTURE, "portfolio_selected.csv"), "utf8"))
    .trim()
    .split("\n")
    .slice(1);
  const writer = await ReportWriter.open({
    runDir,
    options: { ...REPORT_DEFAULTS, pdf: "off" },
    reasons: new Map(),
    chemistry: null,
    targetsPath: null,
    structures: [{ index: 0, path: DOCKING_RECEPTOR, format: "pdb" }],
  });
  for (const [at, line] of rows.entries()) {
    const [candidateId = "", name = "", smiles = ""] = line.split(",");
    await writer.add(
      {
        row: { index: at + 1, candidateId, name, smiles, metadata: {} },
        ok: true,
        chem: { parent_smiles: smiles, parent_inchikey: null, inchikey: null, fragment_count: 1 },
      },
      new Map(),
    );
  }
  const category = {
    category_id: CATEGORY.structureNoMd,
    resolved_by: "preset" as const,
    forced: true,
    rule: "test",
    evidence: {
      structureFiles: 1,
      trajectoryFiles: 0,
      mdIntent: false,
      physicsAuditRequested: false,
      assayRows: 0,
    },
  };
  const plan = buildModulePlan(loadPolicy(), category, [], new Set());
  const facts: RunFacts = {
    run_id: "run_docking_fixture",
    project_id: "docking-fixture",
    mode,
    module_id: "svc-runner",
    generated_at: "2026-11-27T00:00:00Z",
    policy: loadPolicy(),
    plan,
    counts: countPlan(plan),
    inputs_sha256: "0".repeat(64),
    compounds: rows.length,
    summaries: new Map(),
    primary_candidate_id: null,
    primary_findings: null,
    context: {},
    profile: "oral_peripheral",
    validation: { ok: rows.length, invalid: 0, unassessed: 0, first_unassessed: [] },
  };
  const htmlPath = await writer.write(facts);
  return {
    runDir,
    htmlPath,
    html: await readFile(htmlPath, "utf8"),
    csv: await readFile(join(runDir, "results", "report.csv"), "utf8"),
  };
}

/**
 * The fixture relabelled as the deep profile writes it (a profile record, the receptor ensemble, each
 * compound rescored with Vinardo and its consensus), typed by the schema so it holds only fields the
 * module writes; the scores stay the standard run's and the Vinardo values are 0.9 × them.
 */
export function deepVariant(file: DockingResultFile): DockingResultFile {
  const profile = {
    name: "deep" as const,
    exhaustiveness: 32,
    ensemble_size: 7,
    rescorers: ["vinardo", "ad4"],
  };
  return {
    ...file,
    mode: "deep",
    structures: file.structures.map((structure) => ({
      ...structure,
      result:
        structure.result.status !== "prepared"
          ? structure.result
          : {
              ...structure.result,
              profile,
              ensemble: {
                receptors: ["crystal", "anm_mode_1_plus", "anm_mode_1_minus"],
                rule: "crystal + 6 ANM conformers",
                eigenvalues: [0.1],
                reason: null,
                paths: [],
              },
            },
      compounds: structure.compounds.map((compound) => {
        if (compound.status !== "docked") return compound;
        const vinardo = Number((compound.score_kcal_mol * 0.9).toFixed(3));
        return {
          ...compound,
          settings: { ...compound.settings, exhaustiveness: 32 },
          profile,
          vinardo_kcal_mol: vinardo,
          best_receptor: "crystal",
          consensus: {
            receptor: "crystal",
            vina_kcal_mol: compound.score_kcal_mol,
            vinardo_kcal_mol: vinardo,
            vinardo_reason: null,
            ad4_kcal_mol: null,
            ad4_reason: "AD4 left out in this fixture",
            consensus_kcal_mol: vinardo,
            spread_kcal_mol: 0,
            scorers_used: ["vinardo"],
            rule: "the mean of the scores that exist",
          },
        };
      }),
    })),
  };
}
