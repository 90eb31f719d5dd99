import assert from "node:assert/strict";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { type CrypticPocketsResultFile, crypticPocketsResultSchema } from "@svc/core";
import { makeTempDir } from "@svc/testing";
import { CRYPTIC_POCKETS_FIXTURE, writeDockingReport } from "../../../test/support/docking-report.ts";
import { RunnerError } from "../../runner-error.ts";
import { readCrypticPocketsResult } from "../cryptic-pockets-file.ts";

const fixture = async (): Promise<CrypticPocketsResultFile> =>
  crypticPocketsResultSchema.parse(
    JSON.parse(await readFile(join(CRYPTIC_POCKETS_FIXTURE, "results", "cryptic_pockets.json"), "utf8")),
  );
const hintsOf = (html: string) =>
  /<div class="cryptic-pockets" id="cryptic-pockets">[\s\S]*?<\/div>\n<\/section>/.exec(html)?.[0] ?? "";
const structureOf = (hints: string, index: number) =>
  new RegExp(`<div class="cryptic" data-structure="${index}">[\\s\\S]*?</div>`).exec(hints)?.[0] ?? "";

test("the structure section shows each structure's transient cavities with the modes that open them, in the module's words, EXPLORATORY; a structure with none says so", async (t) => {
  const { html } = await writeDockingReport(t, "deep", await fixture());
  const hints = hintsOf(html);
  assert.match(hints, /<h3>Cryptic pocket hints <small>EXPLORATORY<\/small><\/h3>/);
  // 1IA1: one transient cavity, opened along modes 1, 2 and 3, worded as cryptic_pockets' card words it.
  const withHint = structureOf(hints, 1);
  assert.match(withHint, /Receptor <code>01_sources\/1ia1_protein_one_lig_removed\.pdb<\/code>/);
  assert.match(
    withHint,
    /<li data-modes="1,2,3"><b>Transient cavity 1<\/b>: a cavity that opens along normal modes 1, 2, 3 in an elastic network model: a hint for where a pocket may open, not evidence that it does\. Opened in anm_mode_1_minus, anm_mode_2_plus, anm_mode_3_plus; 180\.1 Å³, 0 % of its points near a crystal cavity; does not reach the docking pocket; lined by SER:A:125, /,
  );
  assert.match(
    withHint,
    /ConCavity finds 3 cavities on the crystal receptor, the largest 427\.5 Å³; at the docking pocket \(reference ligand 1ia1_ligand\.sdf\): cavity 2 by size \(354\.6 Å³\)/,
  );
  // 1S3V: no transient cavity, and the section says so instead of leaving the structure out.
  const without = structureOf(hints, 0);
  assert.match(
    without,
    /Receptor <code>01_sources\/1s3v_protein_one_lig_removed\.pdb<\/code> \(target DHFR\)/,
  );
  assert.match(
    without,
    /<p class="cryptic-none">No cavity hint for this structure: no transient cavity: every cavity ConCavity finds in the 6 ANM conformers overlaps a crystal one\.<\/p>/,
  );
  assert.doesNotMatch(without, /Transient cavity/);
});

test("a structure cryptic_pockets did not assess shows why, and a run without its file shows no hints", async (t) => {
  const file = await fixture();
  const standard: CrypticPocketsResultFile = {
    ...file,
    mode: "standard",
    structures: file.structures.map((structure) => ({
      ...structure,
      result: {
        status: "not_assessed",
        reason: "deep profile only: seven ConCavity runs cost up to about 80 CPU-s per structure",
        calpha_count: structure.result.calpha_count,
      },
    })),
  };
  const hints = hintsOf((await writeDockingReport(t, "standard", standard)).html);
  assert.match(
    structureOf(hints, 1),
    /<p class="na-note">No cavity hint: not assessed \(deep profile only: seven ConCavity runs/,
  );
  const none = await writeDockingReport(t);
  assert.doesNotMatch(none.html, /cryptic-pockets|Cryptic pocket/);
});

test("report.csv is per compound: the per-structure hints get no column there", async (t) => {
  const { csv } = await writeDockingReport(t, "deep", await fixture());
  const [header = ""] = csv.split("\r\n");
  assert.doesNotMatch(header, /cryptic|cavit/i);
});

test("a cryptic_pockets file holding a field the module does not write is the runner's own fault (INTERNAL), named by its path", async (t) => {
  const file = await fixture();
  const runDir = await makeTempDir("cryptic-report-", t);
  await mkdir(join(runDir, "results"));
  const [first] = file.structures;
  assert.ok(first?.result.status === "executed");
  const tampered = {
    ...file,
    structures: [{ ...first, result: { ...first.result, pocket_score: 0.9 } }],
  };
  await writeFile(join(runDir, "results", "cryptic_pockets.json"), JSON.stringify(tampered));
  await assert.rejects(
    readCrypticPocketsResult(runDir),
    (error: unknown) =>
      error instanceof RunnerError &&
      error.code === "INTERNAL" &&
      /results\/cryptic_pockets\.json: structures\.0\.result.*pocket_score/.test(error.message),
  );
  assert.equal(await readCrypticPocketsResult(await makeTempDir("cryptic-report-", t)), null);
});
