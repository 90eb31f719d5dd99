import assert from "node:assert/strict";
import { test } from "node:test";
import { CodedError } from "./coded-error.ts";
import { defineErrorRegistry, registeredErrorClass } from "./error-registry.ts";

const REGISTRY = defineErrorRegistry({
  404: { THING_NOT_FOUND: "no such thing" },
  409: { THING_EXISTS: "the thing already exists", THING_LOCKED: "the thing is locked" },
});

class ThingError extends registeredErrorClass(REGISTRY) {}

test("a registry declared by status gives every code its status and default message, frozen", () => {
  assert.deepEqual(REGISTRY, {
    THING_NOT_FOUND: { status: 404, message: "no such thing" },
    THING_EXISTS: { status: 409, message: "the thing already exists" },
    THING_LOCKED: { status: 409, message: "the thing is locked" },
  });
  assert.ok(Object.isFrozen(REGISTRY));
  assert.ok(Object.isFrozen(REGISTRY.THING_EXISTS));
});

test("a code declared under two statuses is refused when the registry is defined", () => {
  assert.throws(
    () => defineErrorRegistry({ 400: { TWICE: "a" }, 409: { TWICE: "b" } }),
    /TWICE is declared under two statuses/,
  );
});

test("a registered error carries its code, status, the registry's message unless given one, and its cause", () => {
  const underlying = new Error("disk full");
  const error = new ThingError("THING_LOCKED", undefined, { cause: underlying });
  assert.ok(error instanceof CodedError);
  assert.equal(error.name, "ThingError");
  assert.equal(error.code, "THING_LOCKED");
  assert.equal(error.status, 409);
  assert.equal(error.message, "the thing is locked");
  assert.equal(error.cause, underlying);
  assert.equal(new ThingError("THING_NOT_FOUND", "no thing named x").message, "no thing named x");
});
