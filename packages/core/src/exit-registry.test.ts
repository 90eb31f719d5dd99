import assert from "node:assert/strict";
import { test } from "node:test";
import { CodedError } from "./coded-error.ts";
import { defineExitRegistry, exitErrorClass } from "./exit-registry.ts";

const EXITS = defineExitRegistry({
  2: { ARGS_INVALID: "fix the arguments", FILE_MISSING: "stage the file" },
  10: { SERVICE_DOWN: "retry later" },
});

class ToolError extends exitErrorClass(EXITS) {}

test("an exit table declared by status gives every code its exit and action, frozen", () => {
  assert.deepEqual(EXITS, {
    ARGS_INVALID: { exit: 2, action: "fix the arguments" },
    FILE_MISSING: { exit: 2, action: "stage the file" },
    SERVICE_DOWN: { exit: 10, action: "retry later" },
  });
  assert.ok(Object.isFrozen(EXITS));
  assert.ok(Object.isFrozen(EXITS.SERVICE_DOWN));
});

test("a code declared under two exit statuses, or an exit outside 0-255, is refused when the table is defined", () => {
  assert.throws(
    () => defineExitRegistry({ 2: { TWICE: "a" }, 10: { TWICE: "b" } }),
    /TWICE is declared under two exit statuses/,
  );
  assert.throws(
    () => defineExitRegistry({ 256: { BIG: "a" } }),
    /exit status 256 is not an integer from 0 to 255/,
  );
});

test("an exit error carries its code, message and cause, and reads its exit and action from the table only", () => {
  const underlying = new Error("ECONNREFUSED");
  const error = new ToolError("SERVICE_DOWN", "GET /x: ECONNREFUSED", { cause: underlying });
  assert.ok(error instanceof CodedError);
  assert.equal(error.name, "ToolError");
  assert.equal(error.code, "SERVICE_DOWN");
  assert.equal(error.message, "GET /x: ECONNREFUSED");
  assert.equal(error.cause, underlying);
  assert.equal(error.exitCode, 10);
  assert.equal(error.action, "retry later");
});
