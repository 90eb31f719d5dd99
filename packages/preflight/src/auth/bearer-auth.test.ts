import assert from "node:assert/strict";
import { test } from "node:test";
import { PreflightError } from "../errors.ts";
import { assertAuthorized, createTokenVerifier } from "./bearer-auth.ts";

test("the verifier accepts every configured token and nothing else", () => {
  const verify = createTokenVerifier(["token-one-aaaaaaaaaaaa", "token-two-bbbbbbbbbbbb"]);
  assert.equal(verify("token-one-aaaaaaaaaaaa"), true);
  assert.equal(verify("token-two-bbbbbbbbbbbb"), true);
  assert.equal(verify("token-one-aaaaaaaaaaa"), false);
  assert.equal(verify(""), false);
  assert.equal(createTokenVerifier([])("anything"), false);
});

test("missing, non-bearer and wrong tokens are 401 with a Bearer challenge", () => {
  const verify = createTokenVerifier(["token-one-aaaaaaaaaaaa"]);
  for (const [header, code] of [
    [undefined, "AUTH_MISSING"],
    ["Basic dXNlcjpwYXNz", "AUTH_MISSING"],
    ["Bearer", "AUTH_MISSING"],
    ["Bearer nope", "AUTH_INVALID"],
  ] as const) {
    assert.throws(
      () => assertAuthorized(header, verify),
      (error: unknown) => {
        assert.ok(error instanceof PreflightError);
        assert.equal(error.code, code);
        assert.equal(error.status, 401);
        assert.match(error.headers["www-authenticate"] ?? "", /^Bearer/);
        return true;
      },
    );
  }
  assert.doesNotThrow(() => assertAuthorized("bearer token-one-aaaaaaaaaaaa", verify));
});
