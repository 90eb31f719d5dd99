import assert from "node:assert/strict";
import { test } from "node:test";
import { CodedError } from "../coded-error.ts";
import { ConfigProblemsError } from "./config-problems-error.ts";

test("a refused configuration lists every problem under the service's name, with code CONFIG_INVALID and its cause", () => {
  const cause = new Error("kubeconfig: bad yaml");
  const error = new ConfigProblemsError("preflight", ['PORT must be … (got "x")', "LOG_LEVEL must be …"], {
    cause,
  });
  assert.ok(error instanceof CodedError);
  assert.equal(error.code, "CONFIG_INVALID");
  assert.equal(
    error.message,
    'invalid preflight configuration:\n  - PORT must be … (got "x")\n  - LOG_LEVEL must be …',
  );
  assert.deepEqual(error.problems, ['PORT must be … (got "x")', "LOG_LEVEL must be …"]);
  assert.ok(Object.isFrozen(error.problems));
  assert.equal(error.cause, cause);
});
