import { readFileSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { containerCpuLimit, recordEnvReads, type TrustedKey } from "@svc/core";
import { isLogLevel, LOG_LEVELS, type LogLevel } from "@svc/http-edge";
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
}

export type ConfigResult = { ok: true; config: ServiceConfig } | { ok: false; problems: string[] };

const REDEEM_SCOPES: readonly RedeemScope[] = ["issued_principal", "any_principal"];
const list = (value: string | undefined) =>
  (value ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);

/**
 * Reads and validates every variable; returns all problems together instead of the first.
 * `readText` reads the one file validation needs (SVC_TRUSTED_KEYS_FILE), injected for tests.
 */
export function readConfig(
  env: NodeJS.ProcessEnv,
  cwd = process.cwd(),
  readText: (path: string) => string = (file) => readFileSync(file, "utf8"),
): ConfigResult {
  const problems: string[] = [];
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === "") return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      problems.push(`${name} must be an integer from ${min} to ${max} (got ${JSON.stringify(raw)})`);
      return fallback;
    }
    return value;
  };
  const url = (name: string): string | null => {
    const raw = env[name];
    if (raw === undefined || raw === "") return null;
    try {
      const parsed = new URL(raw);
      if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new Error("scheme");
      return raw.replace(/\/$/, "");
    } catch {
      problems.push(`${name} must be an http(s) URL (got ${JSON.stringify(raw)})`);
      return null;
    }
  };
  const path = (raw: string) => (isAbsolute(raw) ? raw : resolve(cwd, raw));

  const port = int("PORT", 8080, 0, 65535);
  const dataDir = path(env.SVC_DATA_DIR || "./.data/entitlement");
  let databaseUrl: string | null = null;
  if (env.SVC_DATABASE_URL) {
    if (/^postgres(ql)?:\/\//.test(env.SVC_DATABASE_URL)) databaseUrl = env.SVC_DATABASE_URL;
    else problems.push("SVC_DATABASE_URL must be a postgres:// or postgresql:// URL");
  }
  const embedded = databaseUrl === null;
  const adminTokens =
    env.SVC_ADMIN_TOKENS === undefined || env.SVC_ADMIN_TOKENS === "" ? null : list(env.SVC_ADMIN_TOKENS);
  if (adminTokens?.some((token) => token.length < 16))
    problems.push("SVC_ADMIN_TOKENS: every token must have at least 16 characters");
  if (adminTokens === null && !embedded)
    problems.push(
      "SVC_ADMIN_TOKENS is required when SVC_DATABASE_URL is set (no generated token outside embedded mode)",
    );
  const trustedIssuers = list(env.SVC_TRUSTED_ISSUERS);
  if (trustedIssuers.length === 0) trustedIssuers.push(embedded ? "dev" : "google");
  for (const issuer of trustedIssuers) {
    if (issuer === "google" || issuer === "dev") continue;
    if (!/^https?:\/\/[^\s,]+$/.test(issuer))
      problems.push(`SVC_TRUSTED_ISSUERS: ${JSON.stringify(issuer)} is not google, dev or an issuer URL`);
  }
  const logLevelText = env.SVC_LOG_LEVEL || "info";
  const logLevel: LogLevel = isLogLevel(logLevelText) ? logLevelText : "info";
  if (!isLogLevel(logLevelText)) problems.push(`SVC_LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}`);
  const redeemScope = (env.SVC_REDEEM_SCOPE || "issued_principal") as RedeemScope;
  if (!REDEEM_SCOPES.includes(redeemScope))
    problems.push(
      `SVC_REDEEM_SCOPE must be one of ${REDEEM_SCOPES.join(", ")} (got ${JSON.stringify(env.SVC_REDEEM_SCOPE)})`,
    );
  const trustedKeysFile = env.SVC_TRUSTED_KEYS_FILE ? path(env.SVC_TRUSTED_KEYS_FILE) : null;
  let trustedKeys: readonly TrustedKey[] = [];
  if (trustedKeysFile !== null) {
    let text: string | null = null;
    try {
      text = readText(trustedKeysFile);
    } catch (error) {
      problems.push(
        `SVC_TRUSTED_KEYS_FILE: cannot read ${trustedKeysFile} (${(error as NodeJS.ErrnoException).code ?? "error"})`,
      );
    }
    if (text !== null) {
      const parsed = parseTrustedKeysFile(text);
      if (parsed.ok) trustedKeys = Object.freeze(parsed.keys);
      else problems.push(...parsed.problems);
    }
  }
  // issue 23 item 5: which runner images were released is the issuer's to say; verifiers check a
  // seal's image digest against it when it is published
  const releasedRunnerDigests = env.SVC_RELEASED_RUNNER_DIGESTS
    ? list(env.SVC_RELEASED_RUNNER_DIGESTS)
    : null;
  for (const digest of releasedRunnerDigests ?? [])
    if (!/^sha256:[0-9a-f]{64}$/.test(digest))
      problems.push(
        `SVC_RELEASED_RUNNER_DIGESTS: ${JSON.stringify(digest)} is not sha256:<64 lowercase hex>`,
      );
  const config: ServiceConfig = {
    port,
    host: env.HOST || "0.0.0.0",
    dataDir,
    databaseUrl,
    sqlitePath: env.SVC_SQLITE_PATH ? path(env.SVC_SQLITE_PATH) : join(dataDir, "ledger.sqlite"),
    publicUrl: url("SVC_PUBLIC_URL"),
    audience: env.SVC_AUDIENCE || null,
    issuerName: env.SVC_ISSUER_NAME || null,
    verifyUrl: url("SVC_VERIFY_URL"),
    signingKeyFile: env.SVC_SIGNING_KEY_FILE ? path(env.SVC_SIGNING_KEY_FILE) : null,
    trustedKeysFile,
    trustedKeys,
    adminTokens,
    trustedIssuers,
    clockSkewSec: int("SVC_CLOCK_SKEW_SEC", 60, 0, 300),
    allowedPrincipals: list(env.SVC_ALLOWED_PRINCIPALS),
    suspendedPrincipals: list(env.SVC_SUSPENDED_PRINCIPALS),
    logLevel,
    shutdownTimeoutSec: int("SVC_SHUTDOWN_TIMEOUT_SEC", 10, 1, 300),
    pgPoolMax: int("SVC_PG_POOL_MAX", 10, 1, 200),
    embedded,
    redeemScope,
    verifyWorkers: int("SVC_VERIFY_WORKERS", Math.max(1, containerCpuLimit() - 1), 1, 64),
    verifyQueue: int("SVC_VERIFY_QUEUE", 16, 0, 10_000),
    verifyTimeoutMs: int("SVC_VERIFY_TIMEOUT_MS", 10_000, 100, 120_000),
    releasedRunnerDigests:
      releasedRunnerDigests === null ? null : Object.freeze([...new Set(releasedRunnerDigests)]),
    uploadTimeoutMs: int("SVC_UPLOAD_TIMEOUT_MS", 60_000, 100, 600_000),
    uploadIdleTimeoutMs: int("SVC_UPLOAD_IDLE_TIMEOUT_MS", 10_000, 100, 600_000),
  };
  if (!embedded && config.signingKeyFile === null)
    problems.push(
      "SVC_SIGNING_KEY_FILE is required when SVC_DATABASE_URL is set (replicas must share one key)",
    );
  return problems.length > 0 ? { ok: false, problems } : { ok: true, config: Object.freeze(config) };
}

/** Every environment variable {@link readConfig} reads, recorded from the function itself (chart contract test). */
export const ENTITLEMENT_ENV_NAMES: readonly string[] = recordEnvReads((env) => readConfig(env, "/"));
