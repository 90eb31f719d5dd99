// The "Scale" line of sar_explorer's section in docs/science.md (issue 24 item 7: no hand-typed
// figure): the module run on the whole CHEMBL2321810 series, as a run would, and its counts
// rendered into the generated block.
import assert from "node:assert/strict";
import { test } from "node:test";
import { assertGeneratedBlock } from "@svc/testing";
import { chemblSeriesRows } from "../../test/support/chembl-series.ts";
import { inOneThread } from "../define-module.ts";
import { prepareCompound } from "../prepare-compound.ts";
import { loadRDKit } from "../rdkit.ts";
import { sarExplorer } from "./sar-explorer.ts";

const DOCS = new URL("../../../../docs/science.md", import.meta.url);

const n = (value: number) => value.toLocaleString("en-US");
/** `Cl[*:1]>>F[*:1]` as a chemist writes it: Cl → F. */
const readable = (transformation: string) => transformation.replace(/\[\*:\d+\]/g, "").replace(">>", " → ");

test("sar_explorer on the whole CHEMBL2321810 series: the counts docs/science.md states", async () => {
  const rdkit = await loadRDKit();
  const rows = chemblSeriesRows();
  const analyzer = inOneThread(sarExplorer);
  for (const row of rows) analyzer.analyze(prepareCompound(rdkit, row));
  const summary = analyzer.finish();
  const assay = summary.per_assay[0];
  assert.ok(assay, "one assay");
  const top = assay.transformations.top[0];
  assert.ok(top, "a recurring transformation");
  assertGeneratedBlock(
    DOCS,
    "sar-scale",
    "packages/science/src/sar/sar-explorer-scale.validation.test.ts",
    `- **Scale.** On the whole CHEMBL2321810 series (${n(rows.length)} compounds, one assay): ` +
      `${n(summary.scaffold_series.total)} scaffold series, ${n(assay.matched_pairs.total)} matched pairs, ` +
      `${n(assay.transformations.total)} recurring transformations (the most frequent, ${readable(top.transformation)} ` +
      `in ${n(top.pairs)} pairs) and ${n(assay.activity_cliffs.pairs_scored)} pairs scored by SALI; the time it ` +
      "takes is in the package README.",
  );
});
