import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { CliError } from "../cli-error.ts";
import { formatSecretRef, parseSecretRef } from "./secret-ref.ts";

test("file:, env: and k8s: sources parse and print back as typed", () => {
  for (const text of [
    "file:/home/me/token",
    "env:SVC_TOKEN",
    "k8s:svc/svc-preflight-preflight-auth#K8S_API_TOKENS",
  ])
    assert.equal(formatSecretRef(parseSecretRef("--x", text)), text);
  assert.deepEqual(parseSecretRef("--x", "k8s:ns/name#key"), {
    kind: "k8s",
    namespace: "ns",
    name: "name",
    key: "key",
  });
});

test("a relative file: source is stored absolute, so the context works from any folder (issue 28 item 6)", () => {
  assert.deepEqual(parseSecretRef("--x", "file:tokens/preflight"), {
    kind: "file",
    path: join(process.cwd(), "tokens", "preflight"),
  });
});

test("anything else is refused naming the option and the accepted forms", () => {
  for (const text of ["vault:x", "/plain/path", "env:1BAD", "k8s:ns/name", "file:"]) {
    assert.throws(
      () => parseSecretRef("--admin-token", text),
      (error: unknown) =>
        error instanceof CliError &&
        error.code === "INPUT_INVALID" &&
        error.message.startsWith(`--admin-token "${text}" is not a secret source`),
      text,
    );
  }
});
