import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { DOCKING_FIXTURE, writeDockingReport } from "../../../test/support/docking-report.ts";
import { createPoseReader } from "./pose-reader.ts";
import { renderStructureSection } from "./structure-section.ts";

const sectionOf = (html: string) => /<section id="structure">[\s\S]*?<\/section>/.exec(html)?.[0] ?? "";
const withoutData = (html: string) => html.replace(/<script type="application\/json"[\s\S]*?<\/script>/g, "");

test("the structure section shows the box, the residues lining it, the score distribution and the best poses of a real docking run", async (t) => {
  const { html } = await writeDockingReport(t);
  const section = withoutData(sectionOf(html));
  assert.match(
    section,
    /Receptor <code>01_sources\/1s3v_protein_one_lig_removed\.pdb<\/code> \(target DHFR\)/,
  );
  assert.match(
    section,
    /Box: centre \(-3\.08, 27\.78, 2\.73\) Å, size 15\.9 × 19\.4 × 15 Å, from the reference ligand/,
  );
  // DHFR's folate-site residues (Ile7, Glu30, Phe34 in human DHFR numbering) line the pocket.
  for (const residue of ["A:ILE7", "A:GLU30", "A:PHE34"])
    assert.match(section, new RegExp(`${residue} \\(\\d\\)`));
  assert.match(section, /data-quantity="Docking score \(kcal\/mol\)" data-count="3"/);
  const best = /<figure class="best-poses">[\s\S]*?<\/figure>/.exec(section)?.[0] ?? "";
  assert.deepEqual(
    [...best.matchAll(/<tr><td>(\d)<\/td><td>(?:<a [^>]*>)?([\w-]+)/g)].map((m) => [m[1], m[2]]),
    [
      ["1", "DHFR-001"],
      ["2", "DHFR-004"],
      ["3", "DHFR-009"],
    ],
    "best first",
  );
  assert.match(best, /-9\.19<\/td><td>0\.34<\/td><td><span class="fail">fail: inside_box/);
  assert.match(
    sectionOf(html),
    /<script type="application\/json" id="pocket-0">\{"pdb":"ATOM {6}1 {2}N {3}[A-Z]{3} A/,
  );
});

test("deep and standard differ in what they compute, and the report says which computed it", async (t) => {
  const standard = withoutData(sectionOf((await writeDockingReport(t, "standard")).html));
  const deep = withoutData(sectionOf((await writeDockingReport(t, "deep")).html));
  assert.match(standard, /data-profile="standard"/);
  assert.match(
    standard,
    /Profile: <b>standard<\/b> — exhaustiveness 8, 9 poses, seed 42, vina scoring, no rescoring, the crystal receptor only\./,
  );
  assert.match(
    standard,
    /The deep profile .*\(exhaustiveness 32\), docks into an ensemble of receptor conformations and rescores the best pose with Vinardo \(and AD4\); this run did not/,
  );
  assert.doesNotMatch(standard, /<th>Vinardo/);
  assert.match(deep, /data-profile="deep"/);
  assert.match(
    deep,
    /Profile: <b>deep<\/b> — exhaustiveness 32, .*top pose rescored with Vinardo and AD4, an ensemble of 7 receptor conformations \(crystal \+ 6 ANM conformers\)/,
  );
  assert.match(
    deep,
    /The standard profile searches with exhaustiveness 8 \(9 poses\) into the crystal receptor only/,
  );
  assert.match(deep, /<th>Vinardo \(kcal\/mol\)<\/th><th>Consensus \(kcal\/mol\)<\/th>/);
});

test("report.csv and the table carry each docked compound's score and ligand efficiency as molecular_docking.json has them", async (t) => {
  const { csv, html } = await writeDockingReport(t);
  const docked = JSON.parse(
    await readFile(join(DOCKING_FIXTURE, "results", "molecular_docking.json"), "utf8"),
  ).structures[0].compounds as { candidate_id: string; score_kcal_mol: number; ligand_efficiency: number }[];
  const [header = [], ...rows] = csv
    .trim()
    .split("\r\n")
    .map((line) => line.split(","));
  const at = (label: string) => header.indexOf(label);
  assert.ok(at("Docking score (kcal/mol)") > 0 && at("LE (kcal/mol/HA)") > 0, header.join(","));
  for (const compound of docked) {
    const row = rows.find((cells) => cells[1] === compound.candidate_id) ?? [];
    assert.equal(Number(row[at("Docking score (kcal/mol)")]), Number(compound.score_kcal_mol.toFixed(2)));
    assert.equal(Number(row[at("LE (kcal/mol/HA)")]), compound.ligand_efficiency);
    assert.equal(row[at("Docking structure (pdbs index)")], "0");
  }
  assert.match(html, /<th data-numeric="1"[^>]*><button[^>]*>Docking score \(kcal\/mol\)<\/button><\/th>/);
});

test("a docked compound's card has the docking panel: score, LE, pose checks, interactions, the pose for the 3D viewer and a printed projection", async (t) => {
  const { html } = await writeDockingReport(t);
  const card = /<article class="card" id="card-DHFR-004"[\s\S]*?<\/article>/.exec(html)?.[0] ?? "";
  const panel = /<section class="cp" data-panel="docking">[\s\S]*?<\/section>/.exec(card)?.[0] ?? "";
  assert.match(panel, /<th>Vina score<\/th><td>-7\.45 kcal\/mol<\/td>/);
  assert.match(panel, /<th>Ligand efficiency<\/th><td>0\.355 kcal\/mol per heavy atom \(21 heavy atoms\)/);
  assert.match(panel, /<th>Pose checks<\/th><td class="pass">pass<\/td>/);
  assert.match(panel, /4 hydrophobic contacts, 2 hydrogen bonds, 1 salt bridge; 6 residues involved/);
  assert.match(panel, /Residues within 4 Å of the pose: A:\w+\d+ \(\d(\.\d)? Å\)/);
  assert.match(
    panel,
    /<svg class="pose-2d"[^>]*>[\s\S]*<line class="lig" stroke="#2f50f8"/,
    "nitrogens in blue",
  );
  const data = /<script type="application\/json" id="pose-card-DHFR-004-0">([\s\S]*?)<\/script>/.exec(
    panel,
  )?.[1];
  const pose = JSON.parse(data ?? "null");
  assert.match(pose.sdf, /M {2}END/);
  assert.ok(
    pose.contacts.some(([chain, resi]: [string, number]) => chain === "A" && resi === 30),
    "Glu30 in contact",
  );
  assert.match(
    html,
    /script-src 'sha256-[^']+' 'sha256-[^']+' 'sha256-[^']+'/,
    "3Dmol and the viewer allowed by hash",
  );
  assert.equal(html.match(/3Dmol\.js 2\.5\.5 \(npm 3dmol\), BSD-3-Clause/g)?.length, 1, "3Dmol inlined once");
});

test("staged structures with no docking result still get the section, saying why and where to look", async () => {
  const html = await renderStructureSection({
    run: { mode: "standard", method: null, structures: [], byCompound: new Map() },
    pockets: [],
    carded: new Set(),
    poses: createPoseReader(DOCKING_FIXTURE),
    reason: "not available in this build",
    crypticPockets: null,
  });
  assert.match(
    html,
    /molecular_docking wrote no result \(not available in this build\); the module coverage table/,
  );
});
