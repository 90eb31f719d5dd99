import assert from "node:assert/strict";
import { readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, test } from "node:test";
import { entitlementForFile } from "./support/entitlement-harness.ts";
import { runArgs, runCli, stageDemo } from "./support/run-cli.ts";

const stand = entitlementForFile("inputs@example.com", 3);

type Mutation = (projectDir: string) => Promise<void>;
const writeSources =
  (value: unknown): Mutation =>
  (dir) =>
    writeFile(
      join(dir, "01_sources", "sources.json"),
      typeof value === "string" ? value : JSON.stringify(value),
    );
const writePortfolio =
  (text: string): Mutation =>
  (dir) =>
    writeFile(join(dir, "01_sources", "portfolio_selected.csv"), text);

const cases: { name: string; mutate?: Mutation; args?: string[]; error: RegExp }[] = [
  {
    name: "missing project folder",
    args: ["--project-id", "no_such_project"],
    error: /Project directory not found: .*no_such_project/,
  },
  {
    name: "malformed sources.json",
    mutate: writeSources("{ not json"),
    error: /SOURCES_INVALID: 01_sources\/sources.json: malformed JSON/,
  },
  {
    name: "sources.json without portfolio",
    mutate: writeSources({ targets_csv: "targets.csv" }),
    error: /field portfolio_selected_csv: required/,
  },
  {
    name: "sources.json with an unknown target product profile (issue 36 item 2)",
    mutate: writeSources({ portfolio_selected_csv: "portfolio_selected.csv", profile: "oral_kinase" }),
    error:
      /PROFILE_INVALID: 01_sources\/sources.json: field profile: must be one of oral_peripheral, oral_cns, non_oral \(got "oral_kinase"\) — set sources.json profile/,
  },
  {
    name: "referenced file missing",
    mutate: writeSources({ portfolio_selected_csv: "missing.csv" }),
    error: /INPUT_FILE_MISSING: .*field portfolio_selected_csv: file "missing.csv" not found/,
  },
  {
    name: "referenced file outside 01_sources",
    mutate: writeSources({ portfolio_selected_csv: "../../../../etc/passwd" }),
    error: /INPUT_PATH_OUTSIDE: .*points outside 01_sources/,
  },
  {
    name: "symbolic link leading out of 01_sources",
    mutate: async (dir) => {
      await symlink("/etc/hostname", join(dir, "01_sources", "link.csv"));
      await writeSources({ portfolio_selected_csv: "link.csv" })(dir);
    },
    error: /INPUT_PATH_OUTSIDE: .*symbolic link/,
  },
  {
    name: "CSV without a smiles column",
    mutate: writePortfolio("candidate_id,name\nA,x\n"),
    error:
      /CSV_INVALID: 01_sources\/portfolio_selected.csv line 1: no structure column: "smiles" \(or "canonical_smiles"/,
  },
  {
    name: "CSV row with the wrong field count",
    mutate: writePortfolio("candidate_id,smiles\nA,CCO\nB,CCN,extra\n"),
    error: /CSV_INVALID: 01_sources\/portfolio_selected.csv line 3: 3 fields, the header has 2/,
  },
  {
    name: "targets.csv with a malformed UniProt accession",
    mutate: (dir) =>
      writeFile(
        join(dir, "01_sources", "targets.csv"),
        "target_symbol,uniprot_id\nABL1,P00519\nKCNH2,Q128\n",
      ),
    error:
      /TARGETS_INVALID: 01_sources\/targets.csv line 3, field uniprot_id: "Q128" is not a UniProt accession/,
  },
  {
    name: "duplicate candidate ids",
    mutate: writePortfolio("candidate_id,smiles\nCAND-001,CCO\nX,CCN\nCAND-001,CCC\n"),
    error:
      /DUPLICATE_CANDIDATE_ID: .*line 4, field candidate_id: duplicate candidate id "CAND-001" \(first at line 2\)/,
  },
  {
    name: "every id problem of the portfolio at once, not one per run (issue 37 item 6)",
    mutate: writePortfolio("Compound ID,SMILES\nA,CCO\n,CCN\nA,CCC\nB,CC,extra\nB,C\n"),
    error:
      /CSV_INVALID: 01_sources\/portfolio_selected.csv: 3 problems: line 3, field Compound ID: empty candidate id; line 4, field Compound ID: duplicate candidate id "A" \(first at line 2\); line 5: 3 fields, the header has 2 —/,
  },
  {
    name: "an empty portfolio is refused as empty, not as a missing column (issue 37 item 7)",
    mutate: writePortfolio(""),
    error: /CSV_INVALID: 01_sources\/portfolio_selected.csv: the file is empty \(0 bytes\)/,
  },
  {
    name: "a binary portfolio is refused naming its size, none of its bytes echoed (issue 37 item 7)",
    mutate: (dir) =>
      writeFile(
        join(dir, "01_sources", "portfolio_selected.csv"),
        Buffer.concat([Buffer.from("smiles\n\x1b[31m"), Buffer.alloc(2048, 0xff)]),
      ),
    error:
      /CSV_INVALID: 01_sources\/portfolio_selected.csv: a binary file \(2\.0 KiB, control characters\), not a text table; nothing of it is shown/,
  },
  {
    name: "every problem of the assay table at once (issue 37 item 6)",
    mutate: async (dir) => {
      await writeFile(
        join(dir, "01_sources", "assays.csv"),
        "Compound ID,IC50 (nM)\nCAND-001,abc\nCAND-002,>10000\nCAND-003,n.d.\n,5\n",
      );
      await writeSources({ portfolio_selected_csv: "portfolio_selected.csv", assays_csv: "assays.csv" })(dir);
    },
    error:
      /ASSAYS_INVALID: 01_sources\/assays.csv: 2 problems: line 2, field IC50 \(nM\): "abc" is not a number .*; line 5, field Compound ID: empty candidate id/,
  },
  {
    name: "primary candidate not in the portfolio",
    mutate: writeSources({ portfolio_selected_csv: "portfolio_selected.csv", primary_candidate_id: "NOPE" }),
    error: /PRIMARY_CANDIDATE_NOT_FOUND: .*field primary_candidate_id: "NOPE"/,
  },
  {
    name: "structure file with no protein chain (issue 25 item 1)",
    mutate: async (dir) => {
      await writeFile(
        join(dir, "01_sources", "ion.pdb"),
        "HETATM    1 CA    CA A 301       1.000   2.000   3.000  1.00 20.00          CA\n",
      );
      await writeSources({ portfolio_selected_csv: "portfolio_selected.csv", pdbs: ["ion.pdb"] })(dir);
    },
    error:
      /STRUCTURE_INVALID: 01_sources\/ion\.pdb \(sources\.json pdbs\[0\]\.file\): holds no protein chain/,
  },
  {
    name: "structure box larger than 40 Å on a side (issue 25 item 1)",
    mutate: async (dir) => {
      await writeFile(
        join(dir, "01_sources", "receptor.pdb"),
        "ATOM      1  CA  ALA A   1       0.000   0.000   0.000  1.00 20.00           C\n",
      );
      await writeSources({
        portfolio_selected_csv: "portfolio_selected.csv",
        pdbs: [{ file: "receptor.pdb", box: { center: [0, 0, 0], size: [50, 20, 20] } }],
      })(dir);
    },
    error:
      /STRUCTURE_INVALID: 01_sources\/receptor\.pdb \(sources\.json pdbs\[0\]\.box\.size\): the box is larger than 40 Å/,
  },
  {
    name: "unknown category preset",
    args: ["--category-preset", "NOT_A_CATEGORY"],
    error: /CATEGORY_UNKNOWN/,
  },
  {
    name: "bad run id",
    args: ["--run-id", "../escape"],
    error: /CONFIG_INVALID: invalid svc-runner configuration:\n {2}- --run-id/,
  },
];

describe("input errors stop the run before any entitlement call (exit 2)", () => {
  for (const { name, mutate, args, error } of cases) {
    test(name, async () => {
      const staged = await stageDemo();
      await mutate?.(staged.projectDir);
      const before = stand.proxy.paths.length;
      const run = await runCli(
        runArgs({ runId: "run_input", staged, entitlementUrl: stand.proxy.url, extra: args }),
        { SVC_DEV_TOKEN: stand.token },
      );
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, error);
      // Nothing of a binary file reaches the terminal: no escape sequence, no replacement character.
      for (const char of ["\x1b", "\ufffd"]) assert.ok(!run.stderr.includes(char), JSON.stringify(char));
      assert.equal(stand.proxy.paths.length, before, "no entitlement call was made");
    });
  }

  test("2,000 molecules run in a bounded heap; unparseable rows are reported per row, not dropped", async () => {
    const staged = await stageDemo();
    const demo = (await readFile(join(staged.projectDir, "01_sources", "portfolio_selected.csv"), "utf8"))
      .trim()
      .split("\n")
      .slice(1);
    const smiles = demo.map((line) => line.split(",")[2]);
    const rows = ["candidate_id,smiles"];
    for (let at = 0; at < 2000; at++)
      rows.push(`M${at},${at === 7 || at === 1500 ? "C1CC(notasmiles" : smiles[at % smiles.length]}`);
    await writeFile(join(staged.projectDir, "01_sources", "portfolio_selected.csv"), `${rows.join("\n")}\n`);
    await writeFile(
      join(staged.projectDir, "01_sources", "sources.json"),
      JSON.stringify({ portfolio_selected_csv: "portfolio_selected.csv" }),
    );
    const run = await runCli(
      runArgs({
        runId: "run_2000",
        staged,
        entitlementUrl: stand.proxy.url,
        extra: ["--log-format", "json"],
      }),
      { SVC_DEV_TOKEN: stand.token },
      // A fixed heap for any portfolio size: rows, report cards and module findings stream through
      // scratch files. 96 MB since the cards carry eight modules' findings (64 for six, 48 before):
      // the page is capped at 25 MB (REPORT_MAX_BYTES); this run's report is 16.7 MB.
      ["--max-old-space-size=96"],
    );
    assert.equal(run.code, 0, run.stderr.slice(-2000));
    const summary = JSON.parse(
      await readFile(join(staged.outputRoot, "run_2000", "results", "summary.json"), "utf8"),
    );
    assert.equal(summary.compounds.total, 2000);
    assert.equal(summary.compounds.unparseable, 2);
    assert.deepEqual(summary.compounds.unparseable_candidates, ["M7", "M1500"]);
    const progress = run.stderr
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    // Progress is time-based (every 5 s, issue 10 item 7); the last report is always written.
    const last = progress.filter((entry) => entry.phase === "modules" && entry.total === 2000).at(-1);
    assert.equal(last?.done, 2000);
    assert.equal(last?.percent, 100);
    assert.equal(typeof last?.rate_per_s, "number");
  });
});
