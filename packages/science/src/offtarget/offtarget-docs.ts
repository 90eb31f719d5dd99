import type { IndexedTarget } from "./drugcentral-target-index.ts";
import type { AtK, OfftargetValidation } from "./offtarget-validation.ts";

/** The docs/science.md generated block this file renders (issue 40 item 5). */
export const OFFTARGET_DOCS_BLOCK = "offtarget-screening-validation";

/** The test that checks (and with UPDATE_SCIENCE_DOCS=1 rewrites) it. */
export const OFFTARGET_DOCS_SOURCE = "packages/science/src/offtarget/offtarget-screening.validation.test.ts";

const f3 = (value: number) => value.toFixed(3);

/**
 * offtarget_screening's held-out figures as docs/science.md shows them: the chosen floor, test
 * precision@k, recall@k and hit rate beside the two baselines, the valid curve the floor was read
 * from and the test by similarity to the nearest train drug.
 */
export function renderOfftargetValidation(v: OfftargetValidation, targets: readonly IndexedTarget[]): string {
  const row = (label: string, list: readonly AtK[]) =>
    `| ${label} | ${list.map((s) => `${f3(s.precision)} | ${f3(s.recall)} | ${f3(s.hit_rate)}`).join(" | ")} |`;
  const ks = v.nearest_drugs.map((s) => s.k);
  const mostFrequent = v.baselines.most_frequent;
  const named = (mostFrequent[mostFrequent.length - 1]?.targets ?? []).map(
    (t) => `${targets[t]?.name ?? "?"} (${targets[t]?.accession ?? "?"})`,
  );
  const floorAt = v.floor_grid.indexOf(v.floor);
  return [
    `Scaffold-disjoint split of the DrugCentral drugs with at least one target (${v.drugs.train} train, ` +
      `${v.drugs.valid} valid, ${v.drugs.test} test; ${v.test_pairs} known (drug, target) pairs among the test ` +
      `drugs, ${v.train_targets} distinct targets among the train drugs). Each held-out drug's targets are ` +
      `predicted from the train drugs alone, by the ${v.neighbours} nearest at Tanimoto ≥ the floor. Floor ` +
      `chosen on valid: **${v.floor}** (valid F1 of precision@3 and recall@3 ${f3(v.valid_f1[floorAt] ?? 0)}); ` +
      `${v.test_in_domain} of ${v.drugs.test} test drugs have a train drug at or above it. Precision is over ` +
      "the targets said (an out-of-domain drug says none), recall over every known pair, hit rate the share " +
      "of test drugs with a known target among those said.",
    "",
    `| predictor | ${ks.map((k) => `precision@${k} | recall@${k} | hit rate@${k}`).join(" | ")} |`,
    `|---|${ks.map(() => "---|---|---|").join("")}`,
    row(`nearest drugs (${v.neighbours} at Tanimoto ≥ ${v.floor})`, v.nearest_drugs),
    row("the k most frequent train targets, for every drug", mostFrequent),
    row("k train targets at random (expected)", v.baselines.random),
    "",
    `The most frequent train targets, in order: ${named.join(", ")}.`,
    "",
    `Beats both baselines on every figure: **${v.beats_baselines ? "yes" : "no"}**` +
      (v.beats_baselines ? "." : " — the module names no target for any compound (its calls are withheld)."),
    "",
    "Valid F1 at k = 3 per floor (the floor is the best, the highest on ties):",
    "",
    `| floor | ${v.floor_grid.map((x) => x.toFixed(2)).join(" | ")} |`,
    `|---|${v.floor_grid.map(() => "---|").join("")}`,
    `| valid F1 | ${v.valid_f1.map(f3).join(" | ")} |`,
    "",
    "Test precision@3 by the similarity of each test drug's nearest train drug, beside the 3 most frequent " +
      "targets on the same drugs:",
    "",
    "| nearest train drug's Tanimoto | test drugs | nearest drugs | 3 most frequent targets |",
    "|---|---|---|---|",
    ...v.test_by_similarity.map(
      (b) =>
        `| ${b.to === null ? `≥ ${b.from.toFixed(1)}` : `${b.from.toFixed(1)}–${b.to.toFixed(1)}`} | ${b.drugs} | ` +
        `${f3(b.precision)} | ${f3(b.most_frequent_precision)} |`,
    ),
  ].join("\n");
}
