import assert from "node:assert/strict";
import { test } from "node:test";
import { predictMixed, trainMixed } from "./mixed-logistic.ts";

test("the bits-plus-descriptors logistic regression learns a descriptor rule and a bit rule, deterministically", () => {
  // Label = (x > 0) except that bit 7 forces 1: both parts of the model must carry weight.
  const rows = Array.from({ length: 200 }, (_, i) => {
    const x = ((i * 37) % 200) / 100 - 1;
    return { bits: i % 5 === 0 ? [7, 100] : [100], x: [x] };
  });
  const labels = rows.map((r) => (r.bits.includes(7) || (r.x[0] ?? 0) > 0 ? 1 : 0) as 0 | 1);
  const options = { l2: 1e-4, iterations: 400, learningRate: 0.1, denseColumns: 1 };
  const model = trainMixed(rows, labels, options);
  assert.ok((model.dense[0] ?? 0) > 1, `descriptor weight ${model.dense[0]}`);
  assert.ok((model.weights[7] ?? 0) > 1, `bit weight ${model.weights[7]}`);
  const correct = rows.filter((r, i) => predictMixed(model, r) >= 0.5 === (labels[i] === 1)).length;
  assert.ok(correct / rows.length > 0.95, `${correct}/200`);
  assert.deepEqual(trainMixed(rows, labels, options), model, "same data, same weights");
});
