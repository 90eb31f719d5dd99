import assert from "node:assert/strict";
import { test } from "node:test";
import { CodedError } from "./coded-error.ts";
import { CoreError } from "./core-error.ts";

test("a coded error keeps its code, its subclass's name and the failure that led to it", () => {
  const underlying = new TypeError("bad base64");
  const error = new CoreError("KEY_INVALID", "the key is not base64", { cause: underlying });
  assert.ok(error instanceof CodedError);
  assert.equal(error.code, "KEY_INVALID");
  assert.equal(error.name, "CoreError");
  assert.equal(error.message, "the key is not base64");
  assert.equal(error.cause, underlying);
  assert.match(String(error.stack), /^CoreError: the key is not base64/);
});

test("without a cause there is none", () => {
  assert.equal(new CoreError("KEY_INVALID", "x").cause, undefined);
});
