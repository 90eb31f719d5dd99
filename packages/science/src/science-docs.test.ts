import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { assertGeneratedBlock, findGeneratedBlocks, textOutsideGeneratedBlocks } from "@svc/testing";
import { admetFiguresMarkdown } from "./admet/admet-figures-markdown.ts";
import { MOLECULENET_CLINTOX_GRAPHCONV } from "./clinical/clinical-precedent-prior.ts";
import { readClinToxModelFile } from "./clinical/clintox-model.ts";
import { clintoxFiguresMarkdown, tox21FiguresMarkdown } from "./fingerprint/fingerprint-figures-markdown.ts";
import { MOLECULENET_TOX21_GRAPHCONV, readTox21ModelFile } from "./toxicity/tox21-model.ts";
import { yScrambleFiguresMarkdown } from "./yscramble/chembl-validation.ts";

// docs/science.md has no hand-typed figure (issue 24 item 7): every measured number sits in a
// generated block that a test renders from checked-in data and compares (UPDATE_SCIENCE_DOCS=1, or
// `node packages/science/scripts/write-science-docs.ts`, rewrites a stale one).

const ROOT = new URL("../../../", import.meta.url);
const DOCS = new URL("docs/science.md", ROOT);
const SOURCE = "packages/science/src/science-docs.test.ts";

describe("docs/science.md's figures blocks rendered from the checked-in model files", () => {
  // Each figure here is recomputed from the SMILES and weights by the model's own test
  // (admet/*-model.validation.test.ts, boiled-egg.validation.test.ts, clinical-precedent-prior.validation.test.ts, tox21-model.validation.test.ts,
  // chembl-validation.validation.test.ts); these blocks only print what those files and constants hold.
  it("admet_predictions: BOILED-Egg on BBBP, the BBB and logD models beside the constant predictor and the simple rule", () => {
    assertGeneratedBlock(DOCS, "admet-validation", SOURCE, admetFiguresMarkdown());
  });

  it("clinical_precedent_prior: CT_TOX test and cross-validated ROC-AUC beside the constant predictor", () => {
    assertGeneratedBlock(
      DOCS,
      "clintox-figures",
      SOURCE,
      clintoxFiguresMarkdown(readClinToxModelFile(), MOLECULENET_CLINTOX_GRAPHCONV),
    );
  });

  it("toxicity_profile: the Tox21 fingerprint model per assay, with its domain limit and the constant predictor", () => {
    assertGeneratedBlock(
      DOCS,
      "tox21-fingerprint-figures",
      SOURCE,
      tox21FiguresMarkdown(readTox21ModelFile(), MOLECULENET_TOX21_GRAPHCONV),
    );
  });

  it("y_scramble_validation: CHEMBL2321810's q² beside its scrambles and the negative control", () => {
    assertGeneratedBlock(DOCS, "y-scramble-chembl", SOURCE, yScrambleFiguresMarkdown());
  });
});

/**
 * Numbers outside generated blocks that are not measurements: each pattern is a constant of a
 * published method or a name (kept short on purpose; a measured figure belongs in a block).
 */
const NOT_MEASURED: readonly { readonly pattern: RegExp; readonly why: string }[] = [
  {
    pattern: /\b(RDKit|OpenMM|Open Babel|PDBFixer|PyTorch|ProDy|Vina-GPU)(\s+[A-Za-z]+)?\s+\d+\.\d+/g,
    why: "a tool's version",
  },
  { pattern: /pH 7\.4|D ?7\.4|-p 7\.4/g, why: "the pH of log D7.4 and of ligand protonation" },
  { pattern: /doi:\S+/g, why: "a DOI" },
  { pattern: /§\s?\d+(\.\d+)*/g, why: "a section number" },
  {
    pattern: /\d+\.\d+ Å/g,
    why: "a distance cut-off of published criteria (PLIP's config.py, PoseBusters, smina)",
  },
  { pattern: /\b(80|90|95|99)%/g, why: "a nominal confidence or conformal level" },
  { pattern: /WLOGP ≤ 5\.88, TPSA ≤ 131\.6/g, why: "Egan's published limits (Egan et al. 2000)" },
  { pattern: /n\^1\.005/g, why: "the SA score's size-penalty exponent (Ertl & Schuffenhauer 2009)" },
  { pattern: /0\.75 ×|±25%/g, why: "PoseBusters' clash_cutoff factor and bond-geometry tolerance" },
  { pattern: /CC BY(-SA)? \d\.\d|Apache-\d\.\d/g, why: "a licence's version" },
  { pattern: /r ≥ 0\.99/g, why: "the agreement the ProDy test requires" },
  {
    pattern: /(call at|predictor's) 0\.5\b/g,
    why: "the probability threshold and the constant predictor's ROC-AUC",
  },
  { pattern: /\b80\/10\/10\b|\b70\/10\/20\b/g, why: "the train/valid/test fractions of a split's name" },
  { pattern: /\b1\/101\b/g, why: "the smallest p of 100 scrambles, (1 + 0) / 101 (a formula)" },
  {
    pattern: /HBD \(≤ 0\.5 → 1, ≥ 3\.5 → 0\)/g,
    why: "Wager et al.'s CNS MPO HBD breakpoints (2010, Figure 2)",
  },
  { pattern: /its \*\*20\*\* lowest non-zero normal modes/g, why: "ANM_MODES, ProDy's calcModes default" },
];

/**
 * What a measured figure looks like: decimal numbers (0.867, −1.12), percentages (99.3%, 52 %),
 * agreement ratios (4,989/4,989, 7648/7666) and bold counts (**2,000**, **3 of 6**).
 */
const FIGURE = new RegExp(
  [
    /(?<![\w.])[−-]?\d[\d,]*\.\d+(?![\w.])/.source,
    /(?<![\w.])\d+(?:\.\d+)?\s?%/.source,
    /(?<![\w./])\d[\d,]*\/\d[\d,]*(?![\w/])/.source,
    /\*\*[−-]?\d[\d,]*(?:(?: of |\/)\d[\d,]*)?\*\*/.source,
  ].join("|"),
  "g",
);

/** The figures of `doc` outside its generated blocks, each with its line number and line. */
export function handTypedFigures(doc: string): { line: number; figure: string; text: string }[] {
  let text = textOutsideGeneratedBlocks(doc);
  for (const { pattern } of NOT_MEASURED) text = text.replace(pattern, (m) => m.replace(/[^\n]/g, " "));
  const lines = text.split("\n");
  const original = textOutsideGeneratedBlocks(doc).split("\n");
  return lines.flatMap((line, i) =>
    [...line.matchAll(FIGURE)].map((m) => ({ line: i + 1, figure: m[0], text: original[i] ?? "" })),
  );
}

describe("docs/science.md has no hand-typed figure", () => {
  it("outside the generated blocks there is no decimal number, percentage, agreement ratio or bold count but the short list of constants", () => {
    const found = handTypedFigures(readFileSync(DOCS, "utf8"));
    assert.deepEqual(
      found.map((f) => `${f.figure} in: ${f.text.trim()}`),
      [],
      "move each into a generated block (or, for a constant of a published method, NOT_MEASURED with why)",
    );
  });

  it("the scan finds a figure typed by hand and ignores one inside a block", () => {
    const doc = [
      "Test ROC-AUC 0.867 on 52% of rows; RDKit 2022.09 at pH 7.4; §3.2 of the paper.",
      "Equal on 4,989/4,989 and **1,998/2,000** NCI molecules, **7** of them, **3 of 6**; a random 80/10/10 split.",
      "<!-- BEGIN GENERATED: x (packages/science/src/science-docs.test.ts) -->",
      "RMSE 1.12",
      "<!-- END GENERATED: x -->",
    ].join("\n");
    assert.deepEqual(
      handTypedFigures(doc).map((f) => f.figure),
      ["0.867", "52%", "4,989/4,989", "**1,998/2,000**", "**7**", "**3 of 6**"],
    );
  });

  it("every generated block names an existing test that checks it", () => {
    const blocks = findGeneratedBlocks(readFileSync(DOCS, "utf8"));
    assert.ok(blocks.length >= 12, `${blocks.length} blocks`);
    for (const block of blocks) {
      const path = fileURLToPath(new URL(block.source, ROOT));
      assert.ok(existsSync(path), `${block.name}: ${block.source} does not exist`);
      const text = readFileSync(path, "utf8");
      assert.ok(
        text.includes("assertGeneratedBlock("),
        `${block.name}: ${block.source} checks no generated block`,
      );
    }
  });
});
