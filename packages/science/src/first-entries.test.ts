import assert from "node:assert/strict";
import { test } from "node:test";
import { FirstEntries, SUMMARY_LIST_LIMIT } from "./first-entries.ts";

test("keeps the first entries up to the limit, in the order added, and counts every one", () => {
  const list = new FirstEntries<number>(3);
  for (let n = 1; n <= 10; n++) list.add(n);
  assert.deepEqual(list.items, [1, 2, 3]);
  assert.equal(list.count, 10);
});

test("the default limit is the summaries' shared one", () => {
  const list = new FirstEntries<string>();
  for (let n = 0; n < SUMMARY_LIST_LIMIT + 5; n++) list.add(`C${n}`);
  assert.equal(list.items.length, SUMMARY_LIST_LIMIT);
  assert.equal(list.items.at(-1), `C${SUMMARY_LIST_LIMIT - 1}`);
  assert.equal(list.count, SUMMARY_LIST_LIMIT + 5);
});
