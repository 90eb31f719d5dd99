import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { randomFillSync } from "node:crypto";
import { mkdir, mkdtemp, readFile, rm, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, before, describe, it } from "node:test";
import { CLAIM_LINE_LABELS, isClaimStrength, VERIFY_SCRIPT } from "@svc/core";
import { svc } from "./support/operator-services.ts";

const SVC_BIN = join(import.meta.dirname, "..", "bin", "svc.js");

const NCI = "/usr/share/RDKit/Data/NCI/first_5K.smi";
const DEMO = join(import.meta.dirname, "..", "..", "..", "examples", "demo");
let root: string;

// Native RDKit (python3-rdkit, installed by .ci/run) is the independent reference: it writes the
// SD file and says whether two SMILES are the same molecule.
function python(script: string, input: string): string {
  const result = spawnSync("/usr/bin/python3", ["-c", script], { input, encoding: "utf8" });
  assert.equal(result.status, 0, `python3-rdkit is required: ${result.stderr}`);
  return result.stdout;
}

before(async () => {
  root = await mkdtemp(join(tmpdir(), "svc-cli-project-"));
});
after(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("svc project init", () => {
  it("--profile writes the target product profile into sources.json and says so; an unknown one is PROFILE_INVALID before anything is written (issue 36 item 2)", async () => {
    await writeFile(join(root, "cns.smi"), "CN1CCC[C@H]1c1cccnc1 nicotine\nCCO ethanol\n");
    const made = await svc(
      "project",
      "init",
      join(root, "cns.smi"),
      "--out",
      join(root, "cns"),
      "--profile",
      "oral_cns",
    );
    assert.equal(made.code, 0, made.stderr);
    assert.match(made.stdout, /^ {2}profile: oral_cns \(oral drug acting in the brain/m);
    const sources = JSON.parse(await readFile(join(root, "cns", "01_sources", "sources.json"), "utf8"));
    assert.equal(sources.profile, "oral_cns");
    const plain = await svc("project", "init", join(root, "cns.smi"), "--out", join(root, "plain"));
    assert.match(
      plain.stdout,
      /^ {2}profile: oral_peripheral \(the default; --profile oral_cns or non_oral to change\)$/m,
    );
    const bad = await svc(
      "project",
      "init",
      join(root, "cns.smi"),
      "--out",
      join(root, "bad"),
      "--profile",
      "oral_kinase",
    );
    assert.equal(bad.code, 2);
    assert.match(
      bad.stderr,
      /^svc: --profile must be one of oral_peripheral, oral_cns, non_oral \(got "oral_kinase"\)/,
    );
    await assert.rejects(readFile(join(root, "bad", "01_sources", "sources.json")));
  });

  it("copies --structure files (and a ligand SD file) into 01_sources/ and lists them under pdbs with their pocket (issue 25 item 1)", async () => {
    await writeFile(join(root, "cpds.smi"), "CCO ethanol\nc1ccccc1 benzene\n");
    await writeFile(
      join(root, "receptor.pdb"),
      "ATOM      1  CA  ALA A   1       0.000   0.000   0.000  1.00 20.00           C\n",
    );
    await writeFile(join(root, "model.cif"), "data_X\n");
    await writeFile(join(root, "lig.sdf"), "lig\n\n\n");
    const result = await svc(
      "project",
      "init",
      join(root, "cpds.smi"),
      "--out",
      join(root, "structures"),
      "--structure",
      join(root, "receptor.pdb"),
      "--box",
      "1,2,3,20,20,20",
      "--structure",
      join(root, "model.cif"),
      "--ligand",
      join(root, "lig.sdf"),
      "--structure",
      join(root, "receptor.pdb"),
      "--ligand",
      "STI:A:201",
    );
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /structure: receptor\.pdb, pocket by box 1,2,3,20,20,20/);
    const sources = JSON.parse(
      await readFile(join(root, "structures", "01_sources", "sources.json"), "utf8"),
    );
    assert.deepEqual(sources.pdbs, [
      { file: "receptor.pdb", box: { center: [1, 2, 3], size: [20, 20, 20] } },
      { file: "model.cif", ligand: "lig.sdf" },
      { file: "receptor.pdb", ligand: "STI:A:201" },
    ]);
    for (const name of ["receptor.pdb", "model.cif", "lig.sdf"])
      assert.equal(
        await readFile(join(root, "structures", "01_sources", name), "utf8"),
        await readFile(join(root, name), "utf8"),
      );
  });

  it("refuses a --box that is not six numbers and a --ligand before any --structure", async () => {
    await writeFile(join(root, "cpds2.smi"), "CCO ethanol\n");
    const badBox = await svc(
      "project",
      "init",
      join(root, "cpds2.smi"),
      "--out",
      join(root, "bad-box"),
      "--structure",
      join(root, "cpds2.smi"),
      "--box",
      "1,2,3",
    );
    assert.notEqual(badBox.code, 0);
    assert.match(badBox.stderr, /--box 1,2,3: give six numbers cx,cy,cz,sx,sy,sz/);
    const orphan = await svc(
      "project",
      "init",
      join(root, "cpds2.smi"),
      "--out",
      join(root, "orphan"),
      "--ligand",
      "STI:A:1",
    );
    assert.notEqual(orphan.code, 0);
    assert.match(orphan.stderr, /--ligand STI:A:1: give it after the --structure it belongs to/);
  });

  it("turns a SMILES file into 01_sources/ and says what it inferred", async () => {
    const smi = (await readFile(NCI, "utf8")).split("\n").slice(0, 25).join("\n");
    await writeFile(join(root, "nci.smi"), smi);
    const result = await svc("project", "init", join(root, "nci.smi"), "--out", join(root, "nci"));
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /project id: nci \(from the file name/);
    assert.match(result.stdout, /format: SMILES file, 25 compound\(s\)/);
    const sources = JSON.parse(await readFile(join(root, "nci", "01_sources", "sources.json"), "utf8"));
    assert.deepEqual(sources, { portfolio_selected_csv: "portfolio_selected.csv" });
    const csv = (await readFile(join(root, "nci", "01_sources", "portfolio_selected.csv"), "utf8")).split(
      "\r\n",
    );
    assert.equal(csv[0], "candidate_id,name,smiles");
    assert.equal(csv[1], "1,,CC1=CC(=O)C=CC1=O");
    assert.equal(csv.filter((line) => line !== "").length, 26);
  });

  it("renames a table's SMILES and ID columns, keeps metadata, copies targets and refuses to overwrite", async () => {
    await writeFile(
      join(root, "mine.csv"),
      'ID,SMILES,Name,"potency, nM"\r\nA1,CCO,ethanol,12\r\nA2,c1ccccc1,benzene,40\r\n',
    );
    await writeFile(join(root, "targets.csv"), "target_symbol,uniprot_id\nABL1,P00519\n");
    const args = [
      "project",
      "init",
      join(root, "mine.csv"),
      "--targets",
      join(root, "targets.csv"),
      "--name",
      "my-project",
      "--out",
      join(root, "mine"),
    ];
    const result = await svc(...args, "--json");
    assert.equal(result.code, 0, result.stderr);
    const body = JSON.parse(result.stdout) as { inferred: string[]; sourcesJson: Record<string, string> };
    assert.ok(body.inferred.includes('structure column: "SMILES" (read as smiles)'));
    assert.ok(body.inferred.includes('id column: "ID" (read as candidate_id)'));
    assert.ok(body.inferred.includes('name column: "Name" (read as name)'));
    assert.ok(body.inferred.includes("carried forward as metadata: potency, nM"));
    assert.equal(body.sourcesJson.targets_csv, "targets.csv");
    const csv = await readFile(join(root, "mine", "01_sources", "portfolio_selected.csv"), "utf8");
    assert.equal(
      csv,
      'candidate_id,smiles,name,"potency, nM"\r\nA1,CCO,ethanol,12\r\nA2,c1ccccc1,benzene,40\r\n',
    );
    const again = await svc(...args);
    assert.equal(again.code, 2);
    assert.match(again.stderr, /01_sources exists: pass --force/);
  });

  it("reads an SD file with RDKit: the SMILES are the molecules native RDKit wrote", async () => {
    const smiles = ["CC(=O)Oc1ccccc1C(=O)O", "CN1C=NC2=C1C(=O)N(C)C(=O)N2C", "C[C@H](N)C(=O)O"];
    const sdf = python(
      "import sys\nfrom rdkit import Chem\nw=Chem.SDWriter(sys.stdout)\nfor i,s in enumerate(sys.stdin.read().split()):\n  m=Chem.MolFromSmiles(s); m.SetProp('_Name','mol%d'%i); m.SetProp('compound_id','C-%d'%i); m.SetProp('assay','x%d'%i); w.write(m)\nw.close()\n",
      smiles.join("\n"),
    );
    // A record RDKit refuses (carbon with five bonds, written unsanitised), as a bad vendor record.
    const bad = python(
      "from rdkit import Chem\nm=Chem.MolFromSmiles('C(C)(C)(C)(C)C', sanitize=False)\nm.SetProp('_Name','broken')\nm.SetProp('compound_id','CMP-007')\nm.SetProp('assay','x9')\nprint(Chem.MolToMolBlock(m, kekulize=False) + '> <compound_id>\\nCMP-007\\n\\n> <assay>\\nx9\\n\\n$$$$')\n",
      "",
    );
    await writeFile(join(root, "set.sdf"), `${sdf}${bad}garbage record without a molblock\n$$$$\n`);
    const result = await svc("project", "init", join(root, "set.sdf"), "--out", join(root, "sd"), "--json");
    assert.equal(result.code, 0, result.stderr);
    const inferred = (JSON.parse(result.stdout) as { inferred: string[] }).inferred;
    assert.ok(inferred.includes('NOT included: 1 chunk(s) without a molblock (no "M  END" before "$$$$")'));
    assert.ok(
      inferred.some((line) =>
        /^carried as unparseable rows .*: 1 record\(s\) RDKit could not read \(record 4\)$/.test(line),
      ),
      inferred.join("\n"),
    );
    const rows = (await readFile(join(root, "sd", "01_sources", "portfolio_selected.csv"), "utf8"))
      .trim()
      .split("\r\n");
    assert.equal(rows[0], "candidate_id,name,smiles,assay,unparseable_reason");
    const written = rows.slice(1).map((row) => row.split(",")[2] ?? "");
    assert.deepEqual(
      rows.slice(1).map((row) => row.split(",")[0]),
      ["C-0", "C-1", "C-2", "CMP-007"],
    );
    // The bad record is a row with no SMILES and RDKit's own reason, never dropped.
    assert.match(rows[4] ?? "", /^CMP-007,broken,,x9,"?RDKit: .*[Vv]alence/);
    const same = python(
      "import sys\nfrom rdkit import Chem\nfor line in sys.stdin.read().splitlines():\n  a,b=line.split(' ')\n  print(Chem.MolToSmiles(Chem.MolFromSmiles(a))==Chem.MolToSmiles(Chem.MolFromSmiles(b)))\n",
      smiles.map((reference, index) => `${reference} ${written[index]}`).join("\n"),
    );
    assert.equal(same.trim(), "True\nTrue\nTrue");
  });

  it("reads a tab-separated table (.tsv, .txt) as the README lists it (issue 28 item 6)", async () => {
    for (const extension of ["tsv", "txt"]) {
      await writeFile(join(root, `tabbed.${extension}`), "ID\tSMILES\tnote\nm1\tCCO\ta, b\nm2\tc1ccccc1\t\n");
      const result = await svc(
        "project",
        "init",
        join(root, `tabbed.${extension}`),
        "--out",
        join(root, `tabbed-${extension}`),
      );
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /delimiter: tab/);
      const csv = await readFile(
        join(root, `tabbed-${extension}`, "01_sources", "portfolio_selected.csv"),
        "utf8",
      );
      assert.deepEqual(csv.split("\r\n").slice(0, 3), [
        "candidate_id,smiles,note",
        'm1,CCO,"a, b"',
        "m2,c1ccccc1,",
      ]);
    }
  });

  it("refuses a file it cannot read as a portfolio with one line saying what to give", async () => {
    await writeFile(join(root, "bad.csv"), "compound,formula\nA,C2H6O\n");
    const result = await svc("project", "init", join(root, "bad.csv"), "--out", join(root, "bad"));
    assert.equal(result.code, 2);
    assert.match(
      result.stderr,
      /no structure column: "smiles" \(or "canonical_smiles", .*\(columns: compound, formula\); rename the structure column to smiles/,
    );
    const missing = await svc("project", "init", join(root, "nope.smi"));
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /nope\.smi: no such file/);
  });
});

describe("svc project init reads the inputs a chemist has (issue 37 items 6, 7)", () => {
  const MTX = "CN(Cc1cnc2nc(N)nc(N)c2n1)c1ccc(cc1)C(=O)NC(CCC(=O)O)C(=O)O";
  const portfolio = `Compound ID,Molecule Name,Smiles (canonical),series\nMTX,methotrexate,${MTX},antifolate\nIBU,ibuprofen,CC(C)Cc1ccc(cc1)C(C)C(=O)O,decoy\nTMP,trimethoprim,COc1cc(Cc2cnc(N)nc2N)cc(OC)c1OC,antifolate\n`;

  it("matches Smiles (canonical), Compound ID and Molecule Name by their synonyms and says what it matched", async () => {
    await writeFile(join(root, "antifolates.csv"), portfolio);
    const result = await svc("project", "init", join(root, "antifolates.csv"), "--out", join(root, "chem"));
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^ {2}structure column: "Smiles \(canonical\)" \(read as smiles\)$/m);
    assert.match(result.stdout, /^ {2}id column: "Compound ID" \(read as candidate_id\)$/m);
    assert.match(result.stdout, /^ {2}name column: "Molecule Name" \(read as name\)$/m);
    assert.match(result.stdout, /^ {2}carried forward as metadata: series$/m);
    const csv = await readFile(join(root, "chem", "01_sources", "portfolio_selected.csv"), "utf8");
    assert.equal(csv.split("\n")[0], "candidate_id,name,smiles,series");
    assert.ok(csv.includes(`MTX,methotrexate,${MTX},antifolate`));
  });

  it("--assays copies the table, names it assays_csv and says what it read: censored values kept, n.d. and blanks missing", async () => {
    await writeFile(join(root, "antifolates.csv"), portfolio);
    const assays =
      "Compound ID,Assay,Standard Relation,IC50 (nM)\nMTX,DHFR,=,1.2\nMTX,DHFR,,n.d.\nIBU,DHFR,'>',100000\nTMP,DHFR,,\nTMP,DHFR,,ND\n";
    await writeFile(join(root, "ic50.csv"), assays);
    const result = await svc(
      "project",
      "init",
      join(root, "antifolates.csv"),
      "--out",
      join(root, "with-assays"),
      "--assays",
      join(root, "ic50.csv"),
    );
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stdout,
      /^ {2}assays: ic50\.csv as assays_csv, 2 row\(s\) with a value for 2 compound\(s\) in 1 assay\(s\) \(DHFR\)$/m,
    );
    assert.match(
      result.stdout,
      /^ {2}assay columns: id "Compound ID", value "IC50 \(nM\)" \(unit in its name\), relation "Standard Relation", assay "Assay"$/m,
    );
    assert.match(
      result.stdout,
      /^ {2}censored values: 1 row\(s\) .* kept with their qualifier, never averaged with exact ones$/m,
    );
    assert.match(result.stdout, /^ {2}missing values: 3 row\(s\) blank or not determined/m);
    const sources = JSON.parse(
      await readFile(join(root, "with-assays", "01_sources", "sources.json"), "utf8"),
    );
    assert.equal(sources.assays_csv, "ic50.csv");
    assert.equal(await readFile(join(root, "with-assays", "01_sources", "ic50.csv"), "utf8"), assays);
    // The runner reads it the same way, charging nothing.
    const check = await svc("project", "check", join(root, "with-assays"), "--json");
    assert.equal(check.code, 0, `${check.stdout}\n${check.stderr}`);
    const validated = JSON.parse(check.stdout) as { assays: Record<string, unknown> };
    assert.deepEqual(validated.assays, {
      rows: 2,
      censored_rows: 1,
      missing_rows: 3,
      compounds: 2,
      assay_ids: ["DHFR"],
    });
    const short = await svc("project", "check", join(root, "with-assays"));
    assert.match(
      short.stdout,
      /^ {2}assays {4}2 row\(s\) with a value \(1 censored, kept with their qualifier\) for 2 compound\(s\) in 1 assay\(s\); 3 row\(s\) blank or not determined$/m,
    );
  });

  it("--assays with several problems refuses them all at once, and an unknown compound before anything is written", async () => {
    await writeFile(join(root, "antifolates.csv"), portfolio);
    await writeFile(join(root, "bad-assays.csv"), "Compound ID,IC50 (nM)\nMTX,abc\n,5\nIBU,5 mg\n");
    const many = await svc(
      "project",
      "init",
      join(root, "antifolates.csv"),
      "--out",
      join(root, "bad-assays"),
      "--assays",
      join(root, "bad-assays.csv"),
    );
    assert.equal(many.code, 2);
    assert.match(
      many.stderr,
      /bad-assays\.csv: 3 problems: line 2, field IC50 \(nM\): "abc" is not a number .*; line 3, field Compound ID: empty candidate id; line 4, field IC50 \(nM\): "5 mg" is not a number/,
    );
    await writeFile(join(root, "stranger.csv"), "Compound ID,pIC50\nMTX,8.9\nZZZ,5\n");
    const unknown = await svc(
      "project",
      "init",
      join(root, "antifolates.csv"),
      "--out",
      join(root, "bad-assays"),
      "--assays",
      join(root, "stranger.csv"),
    );
    assert.equal(unknown.code, 2);
    assert.match(
      unknown.stderr,
      /1 candidate id\(s\) not in the portfolio: line 3, field Compound ID: "ZZZ"/,
    );
    await assert.rejects(readFile(join(root, "bad-assays", "01_sources", "sources.json")));
  });

  it("an empty file is refused as empty, a binary one by its size without a byte of it, one past 512 MiB by its size with the reason", async () => {
    await writeFile(join(root, "empty.csv"), "");
    const empty = await svc("project", "init", join(root, "empty.csv"), "--out", join(root, "empty"));
    assert.equal(empty.code, 2);
    assert.match(empty.stderr, /empty\.csv: the file is empty \(0 bytes\); give the portfolio file/);
    assert.doesNotMatch(empty.stderr, /column/);

    await writeFile(
      join(root, "binary.csv"),
      Buffer.concat([Buffer.from("\x1b[2J\x07"), Buffer.alloc(3000, 0xfe)]),
    );
    const binary = await svc("project", "init", join(root, "binary.csv"), "--out", join(root, "binary"));
    assert.equal(binary.code, 2);
    assert.match(
      binary.stderr,
      /binary\.csv: a binary file \(2\.9 KiB, control characters\), not a portfolio as text; nothing of it is shown/,
    );
    for (const char of ["\x1b", "\x07", "\ufffd"])
      assert.ok(!binary.stderr.includes(char), JSON.stringify(char));

    // Sparse: the size is there without 512 MiB written.
    await writeFile(join(root, "huge.csv"), "smiles\n");
    await truncate(join(root, "huge.csv"), 512 * 1024 * 1024 + 1);
    const huge = await svc("project", "init", join(root, "huge.csv"), "--out", join(root, "huge"));
    assert.equal(huge.code, 2);
    assert.match(
      huge.stderr,
      /huge\.csv: 512\.0 MiB, larger than 512\.0 MiB: the runner reads at most 1,000,000 rows and 512 MiB .*; nothing was written or charged/,
    );
    for (const dir of ["empty", "binary", "huge"])
      await assert.rejects(readFile(join(root, dir, "01_sources", "sources.json")));
  });

  it("50 MB of junk is refused in well under a second, binary or text under a smiles header", async () => {
    const random = Buffer.alloc(50 * 1024 * 1024);
    for (let at = 0; at < random.length; at += 65536)
      randomFillSync(random, at, Math.min(65536, random.length - at));
    await writeFile(join(root, "junk.csv"), random);
    const words = ["lorem", "ipsum", "dolor", "sit", "amet"];
    const lines = ["smiles,id"];
    for (let row = 0; lines.length < 520_000; row++)
      lines.push(`${Array.from({ length: 16 }, (_, at) => words[(row + at * 7) % 5]).join(" ")},${row}`);
    await writeFile(join(root, "junk-text.csv"), `${lines.join("\n")}\n`);
    for (const [file, refusal] of [
      ["junk.csv", /a binary file \(50\.0 MiB/],
      ["junk-text.csv", /1000 of the first 1000 rows have no SMILES in the structure column \(line 2: "/],
    ] as const) {
      const started = performance.now();
      const result = await svc("project", "init", join(root, file), "--out", join(root, "junk"));
      const ms = performance.now() - started;
      assert.equal(result.code, 2);
      assert.match(result.stderr, refusal);
      assert.ok(ms < 1000, `${file} refused after ${Math.round(ms)} ms`);
    }
  });
});

describe("svc project check", () => {
  it("validates a project as the runner does, charging nothing: the demo passes, a portfolio of garbage is refused", async () => {
    const demo = join(import.meta.dirname, "..", "..", "..", "examples", "demo");
    const ok = await svc("project", "check", demo, "--json");
    assert.equal(ok.code, 0, `${ok.stdout}\n${ok.stderr}`);
    const result = JSON.parse(ok.stdout) as { charged: boolean; validation: { rows: number; ok: number } };
    assert.equal(result.charged, false);
    assert.deepEqual([result.validation.rows, result.validation.ok], [34, 34]);

    // Without --json: a short summary, not the runner's ~300 lines (issue 28 item 6).
    const short = await svc("project", "check", demo);
    assert.equal(short.code, 0, short.stderr);
    assert.ok(short.stdout.split("\n").length < 12, short.stdout);
    assert.match(short.stdout, /^demo: valid; nothing was charged$/m);
    assert.match(short.stdout, /^ {2}rows {6}34 read: 34 valid, 0 invalid, 0 unassessed$/m);
    assert.match(short.stdout, /^the whole result: svc project check \S+ --json$/m);

    await writeFile(join(root, "garbage.csv"), "candidate_id,smiles\nA,not-a-molecule\nB,C1CC\n");
    const init = await svc("project", "init", join(root, "garbage.csv"), "--out", join(root, "garbage"));
    assert.equal(init.code, 0, init.stderr);
    const bad = await svc("project", "check", join(root, "garbage"));
    assert.equal(bad.code, 2, `${bad.stdout}\n${bad.stderr}`);
    assert.match(bad.stderr, /PORTFOLIO_INVALID/);
  });
});

describe("svc local run", () => {
  /**
   * One local run of examples/demo, as npm run demo does, shared by the test that reads its closing
   * report and the one that runs again into its folder (issue 41 item 4: each local run starts the
   * entitlement service and a whole runner run; the rerun test used to make two runs of its own).
   */
  const demoOut = () => join(root, "demo-out");
  let demoRun: Awaited<ReturnType<typeof svc>>;
  before(async () => {
    demoRun = await svc("local", "run", DEMO, "--out", demoOut());
  });

  it("a project with profile oral_cns is audited for the CNS: the summary, the closing line and the report's first lines name the profile (issue 36 item 2)", async () => {
    const result = await svc("local", "run", join(root, "cns"), "--out", join(root, "cns-out"), "--json");
    assert.equal(result.code, 0, `${result.stdout}\n${result.stderr}`);
    const { runDir } = JSON.parse(result.stdout) as { runDir: string };
    const summary = JSON.parse(await readFile(join(runDir, "results", "summary.json"), "utf8"));
    assert.equal(summary.profile, "oral_cns");
    const html = await readFile(join(runDir, "results", "report.html"), "utf8");
    assert.match(html, /<b>Target product profile: oral_cns<\/b>/);
    assert.match(html, /Wager et al\. 2010 CNS MPO function/);
    assert.match(html, /P-gp inhibitor \(Broccatelli/);
  });

  it("audits a fresh project from svc project init nci.smi and ends VERIFIED offline, online and against the pinned issuer", async () => {
    const result = await svc("local", "run", join(root, "nci"), "--out", join(root, "local-out"), "--json");
    assert.equal(result.code, 0, `${result.stdout}\n${result.stderr}`);
    assert.match(result.stderr, /svc local run: staged nci as project "nci"/);
    const outcome = JSON.parse(result.stdout) as {
      projectId: string;
      seal: { offline: string; online: string; issuedHere: boolean; pinnedIssuer: string; trustFile: string };
      summary: { compounds: { total: number; parsed: number } };
    };
    assert.equal(outcome.projectId, "nci");
    const { trustFile, ...states } = outcome.seal;
    assert.deepEqual(states, {
      offline: "VERIFIED",
      online: "VERIFIED",
      issuedHere: true,
      pinnedIssuer: "VERIFIED",
    });
    assert.equal(trustFile, join(root, "local-out", "trusted-keys.json"));
    assert.equal(outcome.summary.compounds.total, 25);
    assert.equal(outcome.summary.compounds.parsed, 25);
  });

  it("carries the SD record svc project init could not convert into the sealed run as an unparseable row with RDKit's reason (issue 27 item 3)", async () => {
    const result = await svc("local", "run", join(root, "sd"), "--out", join(root, "sd-out"), "--json");
    assert.equal(result.code, 0, `${result.stdout}\n${result.stderr}`);
    const outcome = JSON.parse(result.stdout) as {
      runDir: string;
      seal: { offline: string };
      summary: { compounds: { total: number; parsed: number } };
    };
    assert.equal(outcome.seal.offline, "VERIFIED");
    assert.deepEqual(outcome.summary.compounds, { ...outcome.summary.compounds, total: 4, parsed: 3 });
    const combined = JSON.parse(
      await readFile(join(outcome.runDir, "results", "combined_unified_computational_outputs.json"), "utf8"),
    ) as {
      compounds: {
        candidate_id: string;
        parsed: boolean;
        findings: { molecular_logic?: { error?: string } };
      }[];
    };
    const bad = combined.compounds.find((compound) => compound.candidate_id === "CMP-007");
    assert.equal(bad?.parsed, false);
    assert.match(
      bad?.findings.molecular_logic?.error ?? "",
      /svc project init could not convert this record: RDKit: .*[Vv]alence/,
    );
    const csv = await readFile(join(outcome.runDir, "results", "report.csv"), "utf8");
    assert.match(csv, /\r\n\d+,CMP-007,,broken,unparseable,/);
  });

  it("audits examples/demo as npm run demo does and ends VERIFIED", async () => {
    const result = demoRun;
    assert.equal(result.code, 0, `${result.stdout}\n${result.stderr}`);
    assert.match(result.stdout, /^svc local run: starting the entitlement service/m);
    assert.match(result.stdout, /^Local run run_\S+ finished\.$/m);
    assert.match(result.stdout, /seal offline: VERIFIED/);
    assert.match(result.stdout, /seal online: {2}VERIFIED \(issued by this service\)/);
    // issue 37 item 3: the seal signs and draws the summary's claim strength; the released
    // verify.sh (v6, outside the folder) redraws it and passes the folder too
    const summaryPath = /^ {2}summary {3}(\S+)$/m.exec(result.stdout)?.[1];
    assert.ok(summaryPath, result.stdout);
    const runDir = resolve(summaryPath, "..", "..");
    const claim = JSON.parse(await readFile(summaryPath, "utf8")).claim_strength;
    assert.ok(isClaimStrength(claim), claim);
    assert.match(result.stdout, new RegExp(`claim strength ${claim}`));
    assert.equal(JSON.parse(await readFile(join(runDir, "seal", "seal.json"), "utf8")).claim_strength, claim);
    assert.match(
      await readFile(join(runDir, "seal", "seal.svg"), "utf8"),
      new RegExp(`<text x="240" y="401" [^>]*>${CLAIM_LINE_LABELS[claim]}</text>`),
    );
    const key = /^ {2}repro check: .* --key (\S+) \S+$/m.exec(result.stdout)?.[1];
    assert.ok(key, result.stdout);
    const script = join(root, "demo-verify.sh");
    await writeFile(script, VERIFY_SCRIPT);
    const bySh = spawnSync("bash", [script, "--key", key, runDir], { encoding: "utf8" });
    assert.equal(bySh.status, 0, `${bySh.stdout}\n${bySh.stderr}`);
    assert.match(bySh.stdout, /^verify: OK, /m);
    const bySvc = await svc("seal", "verify", runDir, "--key", key);
    assert.equal(bySvc.code, 0, bySvc.stdout);
    assert.match(bySvc.stdout, new RegExp(`claim strength \\(signed, as the job reported it\\): ${claim}`));
    assert.match(bySvc.stdout, /ok {3}claim_strength: results\/summary\.json states the signed/);
  });

  it("keeps each run's printed repro check working after another run into the same folder", async () => {
    // Run 1 is the shared demo run; run 2 audits another project into its folder.
    const out = demoOut();
    const first = demoRun;
    assert.equal(first.code, 0, `${first.stdout}\n${first.stderr}`);
    // The released verify.sh, never the folder's own copy (issue 23 item 3), from `svc` on PATH.
    const repro =
      /^ {2}repro check: {2}(svc repro verify-script > \S+\/verify\.sh && bash \S+\/verify\.sh --key .+)$/m;
    const check = repro.exec(first.stdout)?.[1];
    assert.ok(check, first.stdout);
    const second = await svc("local", "run", join(root, "nci"), "--out", out);
    assert.equal(second.code, 0, `${second.stdout}\n${second.stderr}`);
    assert.notEqual(repro.exec(second.stdout)?.[1], check);
    // Run 1's line, pasted as printed (its paths are relative to this folder), after run 2's new
    // issuer, with `svc` on PATH as `npm install -g ./packages/cli` puts it there.
    const bin = join(root, "bin");
    await mkdir(bin, { recursive: true });
    await writeFile(join(bin, "svc"), `#!/bin/sh\nexec "${process.execPath}" "${SVC_BIN}" "$@"\n`, {
      mode: 0o755,
    });
    const pasted = spawnSync("bash", ["-c", check], {
      encoding: "utf8",
      env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ""}` },
    });
    assert.equal(pasted.status, 0, `${check}\n${pasted.stdout}\n${pasted.stderr}`);
    assert.match(pasted.stdout, /^verify: OK, /m);
    // Fails closed: with no svc to print the released script, the line fails and says nothing is OK.
    const noSvc = spawnSync("bash", ["-c", check], { encoding: "utf8", env: { PATH: "/usr/bin:/bin" } });
    assert.notEqual(noSvc.status, 0, noSvc.stdout);
    assert.doesNotMatch(noSvc.stdout, /verify: OK/);
  });

  it("refuses a folder without 01_sources/sources.json and says which folder was meant", async () => {
    const parent = join(root, "parent");
    await mkdir(join(parent, "p1", "01_sources"), { recursive: true });
    await writeFile(join(parent, "p1", "01_sources", "sources.json"), "{}\n");
    const result = await svc("local", "run", parent);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /holds project folders, it is not one; give one of: \S*\/parent\/p1$/m);
    const empty = await svc("local", "run", join(parent, "p1", "01_sources"));
    assert.equal(empty.code, 2);
    assert.match(
      empty.stderr,
      /is the project's 01_sources\/ folder; give the folder above it: \S*\/parent\/p1$/m,
    );
  });
});
