import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { assertGeneratedBlock, makeTempDir } from "@svc/testing";
import {
  ANSWERS_DIR,
  casesToCompute,
  inputsDigest,
  regenerateCommand,
  type StoredAnswersOptions,
  settleAnswers,
} from "./support/stored-answers.ts";
import type { StoredAnswersFile } from "./support/stored-answers-file.ts";
import {
  ANSWERS_PROVENANCE_BLOCK,
  ANSWERS_PROVENANCE_SOURCE,
  answersFilesIn,
  answersProvenanceTable,
} from "./support/stored-answers-provenance.ts";

const REPO = fileURLToPath(new URL("../../../", import.meta.url));

type Case = { readonly score: number; readonly terms: readonly number[]; readonly label: string };
const COMPUTE: Readonly<Record<string, Case>> = {
  "t1/a": { score: -7.25, terms: [1.5, -2], label: "x" },
  "t1/b": { score: -6.5, terms: [0.25, 3], label: "y" },
  "t2/c": { score: -9, terms: [4, 4], label: "z" },
};

function optionsIn(dir: string, recompute: boolean, extra: Partial<StoredAnswersOptions> = {}) {
  return {
    name: "toy",
    test: "packages/science/src/toy.validation.test.ts",
    cases: new Map(Object.keys(COMPUTE).map((id) => [id, { input: id }])),
    sample: ["t1/b", "t2/c"],
    tools: async () => ({ toy: "toy 1.0" }),
    dir,
    recompute,
    ...extra,
  } satisfies StoredAnswersOptions;
}

/** What a validation test does: compute the cases it is told to, then settle them. */
async function run(
  options: StoredAnswersOptions,
  compute: (id: string) => Case = (id) => COMPUTE[id] as Case,
) {
  const computed = new Map(casesToCompute(options).map((id) => [id, compute(id)]));
  return settleAnswers(options, computed);
}

const storedIn = (dir: string) =>
  JSON.parse(readFileSync(join(dir, "toy.json"), "utf8")) as StoredAnswersFile;
const rewrite = (dir: string, edit: (file: StoredAnswersFile) => StoredAnswersFile) =>
  writeFileSync(join(dir, "toy.json"), JSON.stringify(edit(storedIn(dir))));

describe("stored answers with a recomputed sample (test/support/stored-answers.ts)", () => {
  it("regeneration computes and writes every case with its inputs digest, the test, the command and the sample", async (t) => {
    const dir = await makeTempDir("svc-answers-", t);
    const options = optionsIn(dir, true);
    assert.deepEqual(casesToCompute(options), ["t1/a", "t1/b", "t2/c"]);
    const answers = await run(options);
    assert.deepEqual([...answers.keys()], ["t1/a", "t1/b", "t2/c"]);
    const file = storedIn(dir);
    assert.equal(file.test, options.test);
    assert.equal(file.regenerate, `SVC_RECOMPUTE_ANSWERS=1 node --test ${options.test}`);
    assert.deepEqual(file.sample, ["t1/b", "t2/c"]);
    assert.match(file.computed_on, /^\d{4}-\d{2}-\d{2}$/);
    for (const [id, expected] of Object.entries(COMPUTE)) {
      assert.deepEqual(file.answers[id]?.answer, expected);
      assert.equal(file.answers[id]?.inputs_sha256, inputsDigest({ input: id }));
    }
  });

  it("regeneration refuses to write when a case was not computed", async (t) => {
    const dir = await makeTempDir("svc-answers-", t);
    const options = optionsIn(dir, true);
    await assert.rejects(
      settleAnswers(options, new Map([["t1/a", COMPUTE["t1/a"] as Case]])),
      /no answer computed for t1\/b, t2\/c/,
    );
    assert.equal(existsSync(join(dir, "toy.json")), false);
  });

  it("an ordinary run recomputes only the sample and returns the stored set with the sample in place, in case order", async (t) => {
    const dir = await makeTempDir("svc-answers-", t);
    await run(optionsIn(dir, true));
    const options = optionsIn(dir, false);
    assert.deepEqual(casesToCompute(options), ["t1/b", "t2/c"]);
    const answers = await run(options);
    assert.deepEqual(Object.fromEntries(answers), COMPUTE);
    assert.deepEqual([...answers.keys()], ["t1/a", "t1/b", "t2/c"]);
  });

  it("a stored value that differs from the recomputed one fails, naming the case, the field and any tool version that changed", async (t) => {
    const dir = await makeTempDir("svc-answers-", t);
    await run(optionsIn(dir, true));
    rewrite(dir, (file) => ({
      ...file,
      answers: {
        ...file.answers,
        "t1/b": {
          inputs_sha256: file.answers["t1/b"]?.inputs_sha256 ?? "",
          answer: { ...COMPUTE["t1/b"], score: -6.4 },
        },
        "t2/c": {
          inputs_sha256: file.answers["t2/c"]?.inputs_sha256 ?? "",
          answer: { ...COMPUTE["t2/c"], terms: [4, 4.01], label: "w" },
        },
      },
    }));
    const newerTool = optionsIn(dir, false, { tools: async () => ({ toy: "toy 2.0" }) });
    await assert.rejects(run(newerTool), (error: Error) => {
      assert.match(error.message, /case t1\/b field score: stored -6\.4, recomputed -6\.5/);
      assert.match(
        error.message,
        /toy: stored toy 1\.0, now toy 2\.0/,
        "the tool versions that differ are shown",
      );
      assert.match(error.message, /case t2\/c field terms\[1\]: stored 4\.01, recomputed 4\b/);
      assert.match(error.message, /case t2\/c field label: stored "w", recomputed "z"/);
      assert.ok(error.message.includes(regenerateCommand(optionsIn(dir, false).test)), error.message);
      return true;
    });
  });

  it("a stored value off by less than its field's tolerance passes; by more, fails stating the tolerance", async (t) => {
    const dir = await makeTempDir("svc-answers-", t);
    await run(optionsIn(dir, true));
    const shifted = (by: number) => (id: string) => ({
      ...(COMPUTE[id] as Case),
      score: (COMPUTE[id] as Case).score + by,
    });
    const tolerant = optionsIn(dir, false, { tolerance: { score: 0.01 } });
    const answers = await run(tolerant, shifted(0.005));
    assert.equal(answers.get("t1/b")?.score, -6.495, "the recomputed value is the one returned");
    await assert.rejects(
      run(tolerant, shifted(0.02)),
      /case t1\/b field score: stored -6\.5, recomputed -6\.48 \(tolerance 0\.01\)/,
    );
    await assert.rejects(
      run(optionsIn(dir, false), shifted(0.005)),
      /field score/,
      "exact without a tolerance",
    );
  });

  it("a case with no stored answer fails, as does a stored case the test no longer has", async (t) => {
    const dir = await makeTempDir("svc-answers-", t);
    await run(optionsIn(dir, true));
    rewrite(dir, (file) => {
      const { "t1/a": _dropped, ...answers } = file.answers;
      return { ...file, answers: { ...answers, "t3/d": { inputs_sha256: "0", answer: { score: 1 } } } };
    });
    await assert.rejects(run(optionsIn(dir, false)), (error: Error) => {
      assert.match(error.message, /case t1\/a: no stored answer/);
      assert.match(error.message, /case t3\/d: stored but no longer a case of the test/);
      return true;
    });
  });

  it("a case whose inputs changed fails even when the sample does not recompute it", async (t) => {
    const dir = await makeTempDir("svc-answers-", t);
    await run(optionsIn(dir, true));
    const changed = optionsIn(dir, false, {
      cases: new Map(Object.keys(COMPUTE).map((id) => [id, { input: id === "t1/a" ? "edited" : id }])),
    });
    await assert.rejects(run(changed), /case t1\/a: its inputs changed since the answer was stored/);
  });

  it("no stored file fails naming the regeneration command; a sample case that is not a case is refused", async (t) => {
    const dir = await makeTempDir("svc-answers-", t);
    await assert.rejects(
      run(optionsIn(dir, false)),
      /no stored answers at .*toy\.json; run SVC_RECOMPUTE_ANSWERS=1/,
    );
    assert.throws(
      () => casesToCompute(optionsIn(dir, false, { sample: ["t9/z"] })),
      /sample case t9\/z is not a case/,
    );
    assert.throws(() => casesToCompute(optionsIn(dir, false, { sample: [] })), /empty sample/);
  });

  it("the inputs digest ignores key order and sees every value", () => {
    assert.equal(
      inputsDigest({ a: 1, b: [2, { c: 3, d: 4 }] }),
      inputsDigest({ b: [2, { d: 4, c: 3 }], a: 1 }),
    );
    assert.notEqual(inputsDigest({ a: 1, b: [2, { c: 3 }] }), inputsDigest({ a: 1, b: [2, { c: 3.5 }] }));
  });
});

describe("the stored answers under test/answers", () => {
  it("are each listed in PROVENANCE.md with their sha256, and each names an existing generating test", () => {
    assertGeneratedBlock(
      join(ANSWERS_DIR, "PROVENANCE.md"),
      ANSWERS_PROVENANCE_BLOCK,
      ANSWERS_PROVENANCE_SOURCE,
      answersProvenanceTable(ANSWERS_DIR),
    );
    for (const name of answersFilesIn(ANSWERS_DIR)) {
      const file = JSON.parse(readFileSync(join(ANSWERS_DIR, name), "utf8")) as StoredAnswersFile;
      assert.ok(existsSync(join(REPO, file.test)), `${name}: ${file.test} exists`);
      assert.equal(file.regenerate, regenerateCommand(file.test));
      for (const id of file.sample) assert.ok(file.answers[id], `${name}: sample case ${id} is stored`);
    }
  });
});
