import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { RunnerError } from "../runner-error.ts";
import { devTokenSource, k8sTokenSource } from "./token-source.ts";

let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), "svc-token-source-"));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

const isTokenUnavailable = (error: unknown) =>
  error instanceof RunnerError && error.code === "TOKEN_UNAVAILABLE";

test("the k8s token source re-reads the projected file on every call, so a rotated token is used", async () => {
  const file = join(dir, "token");
  const source = k8sTokenSource(file);
  await writeFile(file, "first-token\n");
  assert.equal(await source.getToken("aud"), "first-token");
  await writeFile(file, "rotated-token\n");
  assert.equal(await source.getToken("aud"), "rotated-token");
});

test("the k8s token source refuses a missing or empty file, naming it", async () => {
  await assert.rejects(k8sTokenSource(join(dir, "absent")).getToken("aud"), (error: unknown) => {
    return isTokenUnavailable(error) && /absent/.test((error as Error).message);
  });
  await writeFile(join(dir, "empty"), "  \n");
  await assert.rejects(k8sTokenSource(join(dir, "empty")).getToken("aud"), isTokenUnavailable);
});

test("the dev token source prefers the variable, then the file, else says how to mint one", async () => {
  await writeFile(join(dir, "dev"), "from-file");
  assert.equal(await devTokenSource(" from-var ", join(dir, "dev")).getToken("aud"), "from-var");
  assert.equal(await devTokenSource(undefined, join(dir, "dev")).getToken("aud"), "from-file");
  await assert.rejects(devTokenSource(undefined, undefined).getToken("aud"), /mint-dev-token/);
});
