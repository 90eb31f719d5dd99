import assert from "node:assert/strict";
import { test } from "node:test";
import { toInstant } from "./instant.ts";

test("an instant is UTC at second precision with a Z, the seal schema's format", () => {
  assert.equal(toInstant(new Date("2026-03-04T05:06:07.890Z")), "2026-03-04T05:06:07Z");
  assert.equal(toInstant(new Date(Date.UTC(2026, 0, 1))), "2026-01-01T00:00:00Z");
});
