import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import {
  containerCpuLimit,
  createEnvReader,
  type EnvReader,
  recordEnvReads,
  type TrustedKey,
} from "@svc/core";
import { LOG_LEVELS, type LogLevel, REQUEST_TIMEOUT_BOUNDS } from "@svc/http-edge";
import type { RedeemScope } from "./domain/ledger-types.ts";
import { parseTrustedKeysFile } from "./trusted-keys-file.ts";

/** Service configuration, read once from the environment and frozen (ARCHITECTURE.md convention 4). */
export interface ServiceConfig {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  /** PostgreSQL URL; null = embedded SQLite at `sqlitePath`. */
  readonly databaseUrl: string | null;
  readonly sqlitePath: string;
  readonly publicUrl: string | null;
  readonly audience: string | null;
  readonly issuerName: string | null;
  readonly verifyUrl: string | null;
  readonly signingKeyFile: string | null;
  readonly trustedKeysFile: string | null;
  /** The keys of `trustedKeysFile`, parsed and checked during validation (empty without a file). */
  readonly trustedKeys: readonly TrustedKey[];
  /** null = embedded mode generates one into `<dataDir>/admin-token`. */
  readonly adminTokens: readonly string[] | null;
  readonly trustedIssuers: readonly string[];
  readonly clockSkewSec: number;
  readonly allowedPrincipals: readonly string[];
  readonly suspendedPrincipals: readonly string[];
  readonly logLevel: LogLevel;
  readonly shutdownTimeoutSec: number;
  readonly pgPoolMax: number;
  readonly embedded: boolean;
  /** Who may redeem a seal: its issued principal only (default) or each principal once (spec §2.4). */
  readonly redeemScope: RedeemScope;
  /** Seal verification worker threads, uploads allowed to wait, and the time limit of one. */
  readonly verifyWorkers: number;
  readonly verifyQueue: number;
  readonly verifyTimeoutMs: number;
  /** Runner image digests this issuer released (SVC_RELEASED_RUNNER_DIGESTS); null = no list published. */
  readonly releasedRunnerDigests: readonly string[] | null;
  /** One seal upload's time bounds: in all, and without a byte (issue 23 item 11). */
  readonly uploadTimeoutMs: number;
  readonly uploadIdleTimeoutMs: number;
  /** The longest any request may take to arrive, headers and body, on every route (issue 38 item 4). */
  readonly requestTimeoutMs: number;
}

export type ConfigResult = { ok: true; config: ServiceConfig } | { ok: false; problems: string[] };

const REDEEM_SCOPES: readonly RedeemScope[] = ["issued_principal", "any_principal"];
const isIssuer = (issuer: string) =>
  issuer === "google" || issuer === "dev" || /^https?:\/\/[^\s,]+$/.test(issuer);

/**
 * Reads and validates every variable with core's one reader; returns all problems together instead
 * of the first. `readText` reads the one file validation needs (SVC_TRUSTED_KEYS_FILE), injected for tests.
 */
export function readConfig(
  env: NodeJS.ProcessEnv,
  cwd = process.cwd(),
  readText: (path: string) => string = (file) => readFileSync(file, "utf8"),
): ConfigResult {
  const read = createEnvReader(env, { cwd });
  const dataDir = read.path("SVC_DATA_DIR", { fallback: resolve(cwd, "./.data/entitlement") });
  const databaseUrl =
    read.string("SVC_DATABASE_URL", {
      check: (url) => /^postgres(ql)?:\/\//.test(url),
      expected: "a postgres:// or postgresql:// URL",
    }) ?? null;
  const embedded = databaseUrl === null;
  // no generated token outside embedded mode: replicas must share the operator's tokens
  const adminTokens =
    read.list("SVC_ADMIN_TOKENS", {
      each: (token) => token.length >= 16,
      expected: "tokens of at least 16 characters",
      secret: true,
      required: embedded ? undefined : "when SVC_DATABASE_URL is set",
    }) ?? null;
  const trustedIssuers = read.list("SVC_TRUSTED_ISSUERS", {
    fallback: [embedded ? "dev" : "google"],
    each: isIssuer,
    expected: "google, dev or issuer URLs",
  });
  const trustedKeysFile = read.path("SVC_TRUSTED_KEYS_FILE") ?? null;
  const trustedKeys = trustedKeysFile === null ? [] : readTrustedKeys(trustedKeysFile, readText, read);
  // issue 23 item 5: which runner images were released is the issuer's to say; verifiers check a
  // seal's image digest against it when it is published
  const releasedRunnerDigests = read.list("SVC_RELEASED_RUNNER_DIGESTS", {
    each: (digest) => /^sha256:[0-9a-f]{64}$/.test(digest),
    expected: "sha256:<64 lowercase hex> digests",
  });
  const signingKeyFile =
    read.path("SVC_SIGNING_KEY_FILE", {
      // replicas must share one key
      required: embedded ? undefined : "when SVC_DATABASE_URL is set (replicas share one key)",
    }) ?? null;
  // every request, seal uploads included, is cut at the request limit: an upload bound beyond it
  // could never take effect (issue 38 item 4)
  const requestTimeoutMs = read.int("SVC_REQUEST_TIMEOUT_MS", REQUEST_TIMEOUT_BOUNDS);
  const uploadTimeoutMs = read.int("SVC_UPLOAD_TIMEOUT_MS", { fallback: 60_000, min: 100, max: 600_000 });
  if (uploadTimeoutMs > requestTimeoutMs)
    read.problem(
      "SVC_UPLOAD_TIMEOUT_MS",
      `at most SVC_REQUEST_TIMEOUT_MS (${requestTimeoutMs})`,
      String(uploadTimeoutMs),
    );
  return read.finish<ServiceConfig>({
    port: read.int("PORT", { fallback: 8080, min: 0, max: 65535 }),
    host: read.string("HOST", { fallback: "0.0.0.0" }),
    dataDir,
    databaseUrl,
    sqlitePath: read.path("SVC_SQLITE_PATH", { fallback: join(dataDir, "ledger.sqlite") }),
    // a base URL: paths are appended to it, and it is the default audience and seal issuer
    publicUrl: withoutTrailingSlash(read.url("SVC_PUBLIC_URL")),
    audience: read.string("SVC_AUDIENCE") ?? null,
    issuerName: read.string("SVC_ISSUER_NAME") ?? null,
    verifyUrl: withoutTrailingSlash(read.url("SVC_VERIFY_URL")),
    signingKeyFile,
    trustedKeysFile,
    trustedKeys,
    adminTokens,
    trustedIssuers,
    clockSkewSec: read.int("SVC_CLOCK_SKEW_SEC", { fallback: 60, min: 0, max: 300 }),
    allowedPrincipals: read.list("SVC_ALLOWED_PRINCIPALS", { fallback: [] }),
    suspendedPrincipals: read.list("SVC_SUSPENDED_PRINCIPALS", { fallback: [] }),
    logLevel: read.oneOf("SVC_LOG_LEVEL", LOG_LEVELS, { fallback: "info" }),
    shutdownTimeoutSec: read.int("SVC_SHUTDOWN_TIMEOUT_SEC", { fallback: 10, min: 1, max: 300 }),
    pgPoolMax: read.int("SVC_PG_POOL_MAX", { fallback: 10, min: 1, max: 200 }),
    embedded,
    redeemScope: read.oneOf("SVC_REDEEM_SCOPE", REDEEM_SCOPES, { fallback: "issued_principal" }),
    verifyWorkers: read.int("SVC_VERIFY_WORKERS", {
      fallback: Math.max(1, containerCpuLimit() - 1),
      min: 1,
      max: 64,
    }),
    verifyQueue: read.int("SVC_VERIFY_QUEUE", { fallback: 16, min: 0, max: 10_000 }),
    verifyTimeoutMs: read.int("SVC_VERIFY_TIMEOUT_MS", { fallback: 10_000, min: 100, max: 120_000 }),
    releasedRunnerDigests: releasedRunnerDigests === undefined ? null : [...new Set(releasedRunnerDigests)],
    uploadTimeoutMs,
    uploadIdleTimeoutMs: read.int("SVC_UPLOAD_IDLE_TIMEOUT_MS", { fallback: 10_000, min: 100, max: 600_000 }),
    requestTimeoutMs,
  });
}

function withoutTrailingSlash(url: string | undefined): string | null {
  return url === undefined ? null : url.replace(/\/$/, "");
}

// The keys of SVC_TRUSTED_KEYS_FILE, checked at start so a bad file is one more problem listed.
function readTrustedKeys(
  file: string,
  readText: (path: string) => string,
  read: EnvReader,
): readonly TrustedKey[] {
  let text: string;
  try {
    text = readText(file);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? "error";
    read.problem("SVC_TRUSTED_KEYS_FILE", "a readable file", `${file} (${reason})`);
    return [];
  }
  const parsed = parseTrustedKeysFile(text);
  if (parsed.ok) return parsed.keys;
  read.addProblems(parsed.problems);
  return [];
}

/** Every environment variable {@link readConfig} reads, recorded from the function itself (chart contract test). */
export const ENTITLEMENT_ENV_NAMES: readonly string[] = recordEnvReads((env) => readConfig(env, "/"));
