import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { exportPublicKeyPem, generateSigningKey, toTrustedKey } from "@svc/core";
import { readConfig } from "./config.ts";

describe("service configuration", () => {
  it("defaults redemption to the issued principal and verification to a bounded pool", () => {
    const result = readConfig({}, "/srv");
    assert.ok(result.ok);
    assert.equal(result.config.redeemScope, "issued_principal");
    assert.ok(result.config.verifyWorkers >= 1);
    assert.equal(result.config.verifyQueue, 16);
    assert.equal(result.config.verifyTimeoutMs, 10_000);
    assert.equal(result.config.uploadTimeoutMs, 60_000);
    assert.equal(result.config.uploadIdleTimeoutMs, 10_000);
  });

  it("accepts the spec-literal redemption scope and sizes the verification pool", () => {
    const result = readConfig(
      {
        SVC_REDEEM_SCOPE: "any_principal",
        SVC_VERIFY_WORKERS: "3",
        SVC_VERIFY_QUEUE: "0",
        SVC_VERIFY_TIMEOUT_MS: "500",
      },
      "/srv",
    );
    assert.ok(result.ok);
    assert.equal(result.config.redeemScope, "any_principal");
    assert.equal(result.config.verifyWorkers, 3);
    assert.equal(result.config.verifyQueue, 0);
    assert.equal(result.config.verifyTimeoutMs, 500);
  });

  it("reports every bad value together, naming the variable", () => {
    const result = readConfig(
      { SVC_REDEEM_SCOPE: "anyone", SVC_VERIFY_WORKERS: "0", SVC_VERIFY_TIMEOUT_MS: "5" },
      "/srv",
    );
    assert.equal(result.ok, false);
    const problems = result.ok ? [] : result.problems;
    assert.deepEqual(problems, [
      'SVC_REDEEM_SCOPE must be one of issued_principal, any_principal (got "anyone")',
      'SVC_VERIFY_WORKERS must be an integer from 1 to 64 (got "0")',
      'SVC_VERIFY_TIMEOUT_MS must be an integer from 100 to 120000 (got "5")',
    ]);
  });

  it("reads the request time limit of every route, 60 s by default, bounded, and no upload bound beyond it (issue 38 item 4)", () => {
    const defaults = readConfig({}, "/srv");
    assert.ok(defaults.ok);
    assert.equal(defaults.config.requestTimeoutMs, 60_000);
    const set = readConfig({ SVC_REQUEST_TIMEOUT_MS: "5000", SVC_UPLOAD_TIMEOUT_MS: "5000" }, "/srv");
    assert.ok(set.ok);
    assert.equal(set.config.requestTimeoutMs, 5_000);
    const bad = readConfig({ SVC_REQUEST_TIMEOUT_MS: "999" }, "/srv");
    assert.deepEqual(bad.ok ? [] : bad.problems, [
      'SVC_REQUEST_TIMEOUT_MS must be an integer from 1000 to 600000 (got "999")',
    ]);
    const upload = readConfig({ SVC_REQUEST_TIMEOUT_MS: "30000" }, "/srv");
    assert.deepEqual(upload.ok ? [] : upload.problems, [
      'SVC_UPLOAD_TIMEOUT_MS must be at most SVC_REQUEST_TIMEOUT_MS (30000) (got "60000")',
    ]);
  });

  it("trims values like every other service and reads a blank one as unset", () => {
    const result = readConfig({ PORT: " 9090 ", SVC_LOG_LEVEL: "debug ", SVC_AUDIENCE: "  " }, "/srv");
    assert.ok(result.ok);
    assert.equal(result.config.port, 9090);
    assert.equal(result.config.logLevel, "debug");
    assert.equal(result.config.audience, null);
    assert.ok(Object.isFrozen(result.config.trustedIssuers));
  });

  it("outside embedded mode requires admin tokens and a signing key, and never echoes a token", () => {
    const result = readConfig({ SVC_DATABASE_URL: "postgres://db/ledger" }, "/srv");
    assert.deepEqual(result.ok ? [] : result.problems, [
      "SVC_ADMIN_TOKENS must be a comma-separated list of tokens of at least 16 characters when SVC_DATABASE_URL is set (got nothing)",
      "SVC_SIGNING_KEY_FILE must be a file path when SVC_DATABASE_URL is set (replicas share one key) (got nothing)",
    ]);
    const short = readConfig(
      { SVC_ADMIN_TOKENS: "secret-short", SVC_DATABASE_URL: "mysql://db", SVC_SIGNING_KEY_FILE: "/k.pem" },
      "/srv",
    );
    assert.deepEqual(short.ok ? [] : short.problems, [
      'SVC_DATABASE_URL must be a postgres:// or postgresql:// URL (got "mysql://db")',
      "SVC_ADMIN_TOKENS must be a list of tokens of at least 16 characters (got 12 hidden characters)",
    ]);
  });

  it("reads the released runner digests, none by default, and refuses one that is not sha256:<hex> (issue 23 item 5)", () => {
    const none = readConfig({}, "/srv");
    assert.ok(none.ok);
    assert.equal(none.config.releasedRunnerDigests, null);
    const digest = `sha256:${"ab".repeat(32)}`;
    const listed = readConfig({ SVC_RELEASED_RUNNER_DIGESTS: `${digest}, ${digest}` }, "/srv");
    assert.ok(listed.ok);
    assert.deepEqual(listed.config.releasedRunnerDigests, [digest]);
    const bad = readConfig({ SVC_RELEASED_RUNNER_DIGESTS: "runner:1.0.0" }, "/srv");
    assert.equal(bad.ok, false);
    assert.match(
      bad.ok ? "" : bad.problems.join("\n"),
      /SVC_RELEASED_RUNNER_DIGESTS must be a list of sha256:<64 lowercase hex> digests \(got "runner:1\.0\.0"\)/,
    );
  });

  it("parses the trusted-keys file during validation and keeps its keys in the frozen config", () => {
    const key = toTrustedKey(generateSigningKey().publicKey);
    const files: Record<string, string> = { "/srv/keys.json": JSON.stringify([key]) };
    const result = readConfig({ SVC_TRUSTED_KEYS_FILE: "keys.json" }, "/srv", (file) => files[file] ?? "");
    assert.ok(result.ok);
    assert.deepEqual(result.config.trustedKeys, [key]);
  });

  it("reports every problem of the trusted-keys file together with the other variables' problems", () => {
    const good = generateSigningKey();
    const other = generateSigningKey();
    const files: Record<string, string> = {
      "/srv/keys.json": JSON.stringify([
        { key_id: "ed25519:00", public_key_pem: exportPublicKeyPem(good.publicKey) },
        { key_id: "k2", public_key_pem: "not a pem" },
        { ...toTrustedKey(other.publicKey), not_after: "tomorrow" },
      ]),
      "/srv/not-json.json": "[{",
    };
    const read = (file: string) => {
      const text = files[file];
      if (text === undefined) throw Object.assign(new Error("missing"), { code: "ENOENT" });
      return text;
    };
    const bad = readConfig({ SVC_TRUSTED_KEYS_FILE: "keys.json", SVC_LOG_LEVEL: "loud" }, "/srv", read);
    assert.ok(!bad.ok);
    assert.ok(
      bad.problems.includes(
        'SVC_LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud")',
      ),
    );
    assert.match(
      bad.problems.join("\n"),
      /SVC_TRUSTED_KEYS_FILE\[1\]\.public_key_pem: must be a PEM public key/,
    );
    assert.match(bad.problems.join("\n"), /SVC_TRUSTED_KEYS_FILE\[2\]\.not_after/);
    const wrongId = readConfig({ SVC_TRUSTED_KEYS_FILE: "keys.json" }, "/srv", () =>
      JSON.stringify([{ key_id: "ed25519:00", public_key_pem: exportPublicKeyPem(good.publicKey) }]),
    );
    assert.ok(!wrongId.ok);
    assert.match(
      wrongId.problems[0] ?? "",
      /SVC_TRUSTED_KEYS_FILE\[0\]\.key_id: ed25519:00 is not the id of its key/,
    );
    const notJson = readConfig({ SVC_TRUSTED_KEYS_FILE: "not-json.json" }, "/srv", read);
    assert.deepEqual(notJson.ok ? [] : notJson.problems, ["SVC_TRUSTED_KEYS_FILE is not JSON"]);
    const missing = readConfig({ SVC_TRUSTED_KEYS_FILE: "gone.json" }, "/srv", read);
    assert.deepEqual(missing.ok ? [] : missing.problems, [
      'SVC_TRUSTED_KEYS_FILE must be a readable file (got "/srv/gone.json (ENOENT)")',
    ]);
  });
});
