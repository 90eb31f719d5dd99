import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { assertGeneratedBlock } from "@svc/testing";
import { DRUGCENTRAL_SOURCE_FILE } from "../target-risk/drugcentral-index.ts";
import { DRUGCENTRAL_TARGET_INDEX_FILE, drugCentralTargetIndex } from "./drugcentral-target-index.ts";
import { OFFTARGET_DOCS_BLOCK, OFFTARGET_DOCS_SOURCE, renderOfftargetValidation } from "./offtarget-docs.ts";
import { offtargetScreening } from "./offtarget-screening.ts";
import { FLOOR_CHOSEN_AT, validateOfftarget } from "./offtarget-validation.ts";

const data = (name: string) => new URL(`../../data/${name}`, import.meta.url);

test("the held-out figures recomputed from the index's fingerprints, targets and split equal the checked-in ones", () => {
  const { file } = drugCentralTargetIndex();
  assert.deepEqual(validateOfftarget(file.drugs, file.validation.split), file.validation);
});

test("the floor is the valid F1 maximum at k = 3 (highest floor on ties), never read from test", () => {
  const v = drugCentralTargetIndex().file.validation;
  const best = Math.max(...v.valid_f1);
  assert.equal(v.floor, v.floor_grid[v.valid_f1.lastIndexOf(best)]);
  assert.equal(FLOOR_CHOSEN_AT, 3);
  assert.deepEqual(
    v.nearest_drugs.map((s) => s.k),
    [1, 3, 10],
  );
});

test("beats_baselines is true exactly when the transfer's precision, recall and hit rate exceed both baselines' at every k, and the card says which", () => {
  const v = drugCentralTargetIndex().file.validation;
  const beats = v.nearest_drugs.every((s, at) =>
    [v.baselines.most_frequent[at], v.baselines.random[at]].every(
      (b) => b !== undefined && s.precision > b.precision && s.recall > b.recall && s.hit_rate > b.hit_rate,
    ),
  );
  assert.equal(v.beats_baselines, beats);
  const card = offtargetScreening.method.validation;
  assert.match(card, beats ? /beats both baselines on every figure/ : /does NOT beat both baselines/);
  for (const s of v.nearest_drugs)
    assert.ok(card.includes(`precision@${s.k} ${s.precision}, recall@${s.k} ${s.recall}`));
});

test("the most-frequent baseline says the train drugs' commonest targets and the random baseline's precision is the mean known-in-vocabulary share", () => {
  const { file } = drugCentralTargetIndex();
  const v = file.validation;
  const counts = new Map<number, number>();
  for (const drug of file.drugs)
    if (drug.part === "train") for (const t of drug.targets) counts.set(t, (counts.get(t) ?? 0) + 1);
  const top = Math.max(...counts.values());
  assert.equal(counts.get(v.baselines.most_frequent[0]?.targets[0] ?? -1), top);
  assert.equal(v.train_targets, counts.size);
  const test = file.drugs.filter((drug) => drug.part === "test");
  const share =
    test.reduce((sum, drug) => sum + drug.targets.filter((t) => counts.has(t)).length, 0) /
    test.length /
    counts.size;
  for (const random of v.baselines.random) assert.ok(Math.abs(random.precision - share) < 1e-4);
});

test("the index names DrugCentral by sha256 and carries its licence (CC BY-SA 4.0) and attribution; every drug has a target", () => {
  const { file } = drugCentralTargetIndex();
  const sha = createHash("sha256")
    .update(readFileSync(data(DRUGCENTRAL_SOURCE_FILE)))
    .digest("hex");
  assert.equal(file.source.sha256, sha);
  assert.match(file.licence, /^CC BY-SA 4\.0/);
  assert.match(file.attribution, /DrugCentral 2023 \(Avram et al\./);
  assert.ok(file.drugs.every((drug) => drug.targets.length > 0));
  assert.ok(file.drugs.every((drug) => drug.targets.every((t) => file.targets[t] !== undefined)));
});

test("rerunning the build script on the DrugCentral table gives the checked-in target index byte for byte", () => {
  const script = fileURLToPath(new URL("../../scripts/build-drugcentral-target-index.ts", import.meta.url));
  const run = spawnSync(process.execPath, [script, "--stdout"], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    timeout: 900_000,
  });
  assert.equal(run.status, 0, run.stderr);
  assert.ok(
    run.stdout === readFileSync(data(DRUGCENTRAL_TARGET_INDEX_FILE), "utf8"),
    "data/drugcentral-target-index.json differs from a fresh build: rerun the script and update data/PROVENANCE.md",
  );
});

test("docs/science.md's offtarget_screening validation block is the one rendered from the checked-in figures (UPDATE_SCIENCE_DOCS=1 rewrites it)", () => {
  const { file } = drugCentralTargetIndex();
  assertGeneratedBlock(
    new URL("../../../../docs/science.md", import.meta.url),
    OFFTARGET_DOCS_BLOCK,
    OFFTARGET_DOCS_SOURCE,
    renderOfftargetValidation(file.validation, file.targets),
  );
});
