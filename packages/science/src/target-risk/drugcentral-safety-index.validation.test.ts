import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { assertGeneratedBlock } from "@svc/testing";
import { DRUGCENTRAL_INDEX_FILE, DRUGCENTRAL_SOURCE_FILE, drugCentralIndex } from "./drugcentral-index.ts";
import { SAFETY_PANEL_FILES } from "./safety-panel.ts";
import { targetBiologyRisk } from "./target-biology-risk.ts";
import {
  renderTargetRiskValidation,
  TARGET_RISK_DOCS_BLOCK,
  TARGET_RISK_DOCS_SOURCE,
} from "./target-risk-docs.ts";

const data = (name: string) => new URL(`../../data/${name}`, import.meta.url);
const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

test("rerunning the build script on DrugCentral and the panels gives the checked-in index byte for byte (fingerprints, split, figures)", () => {
  const script = fileURLToPath(new URL("../../scripts/build-drugcentral-safety-index.ts", import.meta.url));
  const run = spawnSync(process.execPath, [script, "--stdout"], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    timeout: 600_000,
  });
  assert.equal(run.status, 0, run.stderr);
  assert.ok(
    run.stdout === readFileSync(data(DRUGCENTRAL_INDEX_FILE), "utf8"),
    "data/drugcentral-safety-index.json differs from a fresh build: rerun the script and update data/PROVENANCE.md",
  );
});

test("the index names its sources by sha256 and carries DrugCentral's licence (CC BY-SA 4.0) with the attribution", () => {
  const { file } = drugCentralIndex();
  assert.equal(file.source.sha256, sha256(readFileSync(data(DRUGCENTRAL_SOURCE_FILE))));
  for (const name of SAFETY_PANEL_FILES)
    assert.equal(file.panel_files[name], sha256(readFileSync(data(name))));
  assert.match(file.licence, /^CC BY-SA 4\.0/);
  assert.match(file.attribution, /DrugCentral 2023 \(Avram et al\./);
  assert.ok(file.drugs.every((drug) => drug.targets.length > 0));
});

test("on the scaffold-split test drugs the nearest-neighbour prediction beats the most-frequent-targets and prevalence-random baselines", () => {
  const v = drugCentralIndex().file.validation;
  assert.equal(v.threshold, v.threshold_grid[v.valid_f1.indexOf(Math.max(...v.valid_f1))]);
  assert.ok(v.test.f1 > v.baselines.most_frequent.f1, "F1 above the constant baseline");
  assert.ok(v.test.precision > v.baselines.most_frequent.precision);
  assert.ok(v.test.recall > v.baselines.most_frequent.recall);
  assert.ok(v.test.f1 > v.baselines.prevalence_random.f1);
  assert.match(
    targetBiologyRisk.method.validation,
    new RegExp(`precision ${v.test.precision}, recall ${v.test.recall}`),
  );
});

test("docs/science.md's target_biology_risk validation table is the one rendered from the checked-in figures (UPDATE_SCIENCE_DOCS=1 rewrites it)", () => {
  assertGeneratedBlock(
    new URL("../../../../docs/science.md", import.meta.url),
    TARGET_RISK_DOCS_BLOCK,
    TARGET_RISK_DOCS_SOURCE,
    renderTargetRiskValidation(drugCentralIndex().file.validation),
  );
});
