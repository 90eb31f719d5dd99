import assert from "node:assert/strict";
import { readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, test } from "node:test";
import { entitlementForFile } from "./support/entitlement-harness.ts";
import { runCli } from "./support/run-cli.ts";
import { stageWithPortfolio } from "./support/stage-portfolio.ts";

const stand = entitlementForFile("validate@example.com", 2);

/** The ledger as the caller sees it: runs left, and whether this run id was consumed. */
const ledgerFor = (runId: string) => stand.service.check(stand.token, runId);
const runAgainst = stand.run;

/** `svc-runner validate` on the staged project. */
function validateProject(staged: { inputRoot: string }, extra: string[] = []) {
  return runCli(["validate", "--project-id", "demo", "--input-root", staged.inputRoot, ...extra], {
    SVC_DEV_TOKEN: stand.token,
  });
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

const HEADER = "candidate_id,name,smiles,target_symbol,therapeutic_class\n";
const GOOD = ["G1,aspirin,CC(=O)Oc1ccccc1C(=O)O,,", "G2,caffeine,Cn1cnc2c1c(=O)n(C)c(=O)n2C,,"];

describe("validate, then charge", () => {
  test("a portfolio where no row parses is refused with exit 2, no entitlement call, no ledger entry and no run folder", async (t) => {
    const staged = await stageWithPortfolio(
      `${HEADER}B1,x,not-a-smiles,,\nB2,y,C1CC,,\nB3,z,c1cccc1X,,\n`,
      t,
    );
    const before = await ledgerFor("run_all_bad");
    stand.proxy.paths.length = 0;
    const run = await runAgainst(staged, "run_all_bad", ["--log-format", "json"]);
    assert.equal(run.code, 2, run.stderr);
    assert.match(
      run.stderr,
      /PORTFOLIO_INVALID: no row of 01_sources\/portfolio_selected.csv can be assessed: 3 of 3 rows \(100.0%\)/,
    );
    assert.match(run.stderr, /line 2 \(B1\)/);
    assert.deepEqual(stand.proxy.paths, [], "the entitlement service was never called");
    assert.deepEqual(await ledgerFor("run_all_bad"), before, "runs left unchanged, run id not consumed");
    assert.equal(await exists(join(staged.outputRoot, "run_all_bad")), false, "no run folder left behind");
  });

  test("a mostly-bad portfolio is refused naming the share and the first failing lines; a higher --max-invalid-fraction lets it run", async (t) => {
    const staged = await stageWithPortfolio(
      `${HEADER}${GOOD.join("\n")}\nB1,x,not-a-smiles,,\nB2,y,C1CC,,\nB3,z,CC(C,,\n`,
      t,
    );
    stand.proxy.paths.length = 0;
    const refused = await runAgainst(staged, "run_mostly_bad");
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(
      refused.stderr,
      /PORTFOLIO_INVALID: 3 of 5 rows \(60.0%\) of 01_sources\/portfolio_selected.csv do not parse, more than --max-invalid-fraction 0.5 allows; first failing: line 4 \(B1\): .*; line 5 \(B2\): .*; line 6 \(B3\)/,
    );
    assert.deepEqual(stand.proxy.paths, []);
    assert.equal((await ledgerFor("run_mostly_bad")).already_consumed, false);
    assert.equal(await exists(join(staged.outputRoot, "run_mostly_bad")), false);

    const accepted = await runAgainst(staged, "run_mostly_bad", ["--max-invalid-fraction", "0.7"]);
    assert.equal(accepted.code, 0, accepted.stderr);
    const validation = JSON.parse(
      await readFile(join(staged.outputRoot, "run_mostly_bad", "inputs", "validation.json"), "utf8"),
    );
    assert.deepEqual(
      validation.rows.map((row: { status: string }) => row.status),
      ["ok", "ok", "invalid", "invalid", "invalid"],
    );
    assert.equal(validation.rows[2].line, 4);
    assert.equal(validation.summary.invalid_fraction, 0.6);
  });

  test("svc-runner validate and --dry-run check every row and the plan and never contact the entitlement service", async (t) => {
    const staged = await stageWithPortfolio(`${HEADER}${GOOD.join("\n")}\nB1,x,not-a-smiles,,\n`, t);
    stand.proxy.paths.length = 0;
    const out = join(staged.outputRoot, "validation.json");
    const validate = await validateProject(staged, ["--validation-out", out]);
    assert.equal(validate.code, 0, validate.stderr);
    const result = JSON.parse(validate.stdout);
    assert.equal(result.charged, false);
    assert.equal(result.category_id, "SMALL_MOLECULE__LIGAND_ONLY__NO_STRUCTURE__NO_ASSAYS");
    assert.deepEqual([result.validation.ok, result.validation.invalid], [2, 1]);
    assert.equal(JSON.parse(await readFile(out, "utf8")).rows[2].status, "invalid");
    const dryRun = await runAgainst(staged, "run_dry", ["--dry-run"]);
    assert.equal(dryRun.code, 0, dryRun.stderr);
    assert.equal(JSON.parse(dryRun.stdout).validation.rows, 3);
    assert.deepEqual(stand.proxy.paths, [], "no entitlement call");
    assert.equal(await exists(join(staged.outputRoot, "run_dry")), false);
  });
  test("svc-runner validate refuses a structure whose reference ligand is not in it (exit 2, file and field named), then reports the STRUCTURE_PRESENT plan once it is fixed (issue 25 item 1)", async (t) => {
    const staged = await stageWithPortfolio(`${HEADER}${GOOD.join("\n")}\n`, t);
    const sources = join(staged.projectDir, "01_sources");
    const atoms = [
      "ATOM      1  CA  ALA A   1       0.000   0.000   0.000  1.00 20.00           C",
      "ATOM      2  CA  GLY A   2       3.800   0.000   0.000  1.00 20.00           C",
      "ATOM      3  CA  SER A   3       1.900   3.291   0.000  1.00 20.00           C",
      "HETATM    4  C1  LIG A 101       1.900   1.000   2.000  1.00 20.00           C",
    ];
    await writeFile(join(sources, "receptor.pdb"), `${atoms.join("\n")}\n`);
    const stageSources = (ligand: string) =>
      writeFile(
        join(sources, "sources.json"),
        JSON.stringify({
          portfolio_selected_csv: "portfolio_selected.csv",
          pdbs: [{ file: "receptor.pdb", ligand }],
        }),
      );
    await stageSources("LIG:B:101");
    stand.proxy.paths.length = 0;
    const refused = await validateProject(staged);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(
      refused.stderr,
      /STRUCTURE_INVALID: 01_sources\/receptor\.pdb \(sources\.json pdbs\[0\]\.ligand\): reference ligand LIG:B:101 is not in the file/,
    );
    await stageSources("LIG:A:101");
    const valid = await validateProject(staged);
    assert.equal(valid.code, 0, valid.stderr);
    const result = JSON.parse(valid.stdout);
    assert.equal(result.category_id, "SMALL_MOLECULE__STRUCTURE_PRESENT__NO_MD_TRAJ");
    const nma = result.modules.find((entry: { module_id: string }) => entry.module_id === "dynamics_nma");
    assert.equal(nma.outcome, "planned");
    assert.deepEqual(stand.proxy.paths, [], "no entitlement call");
  });
});
