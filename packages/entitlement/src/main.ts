import { randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { ConfigProblemsError, type TrustedKey, toTrustedKey } from "@svc/core";
import { closeGracefully, createLoggerOptions, describeListenProblem } from "@svc/http-edge";
import type { FastifyInstance } from "fastify";
import { createApp } from "./app.ts";
import { createDevIssuer, devIssuerUrl, loadOrCreateDevIssuerKey } from "./auth/dev-issuer.ts";
import { createTokenVerifier } from "./auth/token-verifier.ts";
import { createDiscoveryIssuer, createGoogleIssuer, type TrustedIssuer } from "./auth/trusted-issuer.ts";
import { readConfig, type ServiceConfig } from "./config.ts";
import { createSealVerifyPool } from "./seal/seal-verify-pool.ts";
import { loadOrCreateEmbeddedSigningKey, readSigningKeyFile } from "./seal/signing-key-source.ts";
import type { LedgerStore } from "./store/ledger-store.ts";
import { PostgresLedgerStore } from "./store/postgres-ledger-store.ts";
import { type DirectoryTightening, ensurePrivateDirectory } from "./store/private-files.ts";
import { SqliteLedgerStore } from "./store/sqlite-ledger-store.ts";

/** A started service. */
export interface RunningService {
  readonly app: FastifyInstance;
  readonly url: string;
  /** Stops accepting, finishes in-flight requests, closes the store. */
  close(): Promise<void>;
}

/** Thrown when the environment is invalid; carries every problem (core's one shape). */
export class ConfigProblems extends ConfigProblemsError {
  constructor(problems: readonly string[], options?: ErrorOptions) {
    super("entitlement", problems, options);
  }
}

/** Reads config, builds the real dependencies, listens (ARCHITECTURE.md convention 2). */
export async function startService(env: NodeJS.ProcessEnv = process.env): Promise<RunningService> {
  const result = readConfig(env);
  if (!result.ok) throw new ConfigProblems(result.problems);
  const config = result.config;
  for (const dir of new Set([config.dataDir, ...(config.embedded ? [dirname(config.sqlitePath)] : [])]))
    logDirectoryTightening(dir, ensurePrivateDirectory(dir));
  const store = await openStore(config);
  let publicUrl = config.publicUrl ?? "";
  const signingKey = config.signingKeyFile
    ? readSigningKeyFile(config.signingKeyFile)
    : loadOrCreateEmbeddedSigningKey(config.dataDir);
  const trustedKeys: TrustedKey[] = [toTrustedKey(signingKey.publicKey), ...config.trustedKeys];
  const devKey = config.trustedIssuers.includes("dev")
    ? await loadOrCreateDevIssuerKey(config.dataDir)
    : null;
  let devIssuer: TrustedIssuer | undefined;
  const remoteIssuers: TrustedIssuer[] = config.trustedIssuers.flatMap((issuer) => {
    if (issuer === "google") return [createGoogleIssuer()];
    if (issuer === "dev") return [];
    return [createDiscoveryIssuer(issuer)];
  });
  const sealVerifier = createSealVerifyPool({
    trustedKeys,
    workers: config.verifyWorkers,
    queueMax: config.verifyQueue,
    timeoutMs: config.verifyTimeoutMs,
  });
  const app = await createApp({
    store,
    sealVerifier,
    verifyAuthorization: createTokenVerifier({
      issuers: () => {
        if (devKey === null) return remoteIssuers;
        // the dev issuer's id depends on the public url, known only after listen; build it once per url
        if (devIssuer?.issuer !== devIssuerUrl(publicUrl))
          devIssuer = createDevIssuer(devKey, devIssuerUrl(publicUrl));
        return [...remoteIssuers, devIssuer];
      },
      audience: () => config.audience ?? publicUrl,
      clockSkewSec: config.clockSkewSec,
      policy: { allowed: config.allowedPrincipals, suspended: config.suspendedPrincipals },
    }),
    adminTokens: config.adminTokens ?? [loadOrCreateAdminToken(config.dataDir)],
    signingKey,
    trustedKeys,
    issuerName: () => config.issuerName ?? publicUrl,
    verifyUrl: config.verifyUrl,
    devIssuer: devKey ? { key: devKey, issuer: () => devIssuerUrl(publicUrl) } : undefined,
    logger: createLoggerOptions(config.logLevel),
    redeemScope: config.redeemScope,
    releasedRunnerDigests: config.releasedRunnerDigests,
    uploadTimeouts: { totalMs: config.uploadTimeoutMs, idleMs: config.uploadIdleTimeoutMs },
    requestTimeoutMs: config.requestTimeoutMs,
  });
  try {
    await app.listen({ port: config.port, host: config.host, listenTextResolver: () => "bound" });
  } catch (error) {
    await sealVerifier.close();
    await store.close();
    throw listenProblem(error, config);
  }
  const address = app.server.address();
  const port = typeof address === "object" && address !== null ? address.port : config.port;
  const url = `http://127.0.0.1:${port}`;
  publicUrl ||= url;
  // contract: ONE line with "msg":"listening" and the loopback url, for a parent process to read
  const listening = { url, public_url: publicUrl, store: store.kind, key_id: signingKey.keyId };
  // pino levels: info = 30; a quieter SVC_LOG_LEVEL must not hide the line a parent waits for
  if (["trace", "debug", "info"].includes(config.logLevel)) app.log.info(listening, "listening");
  else
    process.stdout.write(
      `${JSON.stringify({ level: 30, time: Date.now(), ...listening, msg: "listening" })}\n`,
    );
  let closing: Promise<void> | undefined;
  return {
    app,
    url,
    close() {
      closing ??= (async () => {
        // requests still arriving on kept-alive connections get the 503 envelope, not a half answer
        try {
          await closeGracefully(app, config.shutdownTimeoutSec * 1000);
        } finally {
          await sealVerifier.close();
          await store.close();
        }
      })();
      return closing;
    },
  };
}

/** A port that cannot be bound, told in one line (the bin prints ConfigProblems without a stack). */
export class ListenProblem extends ConfigProblems {
  constructor(problem: string, options?: ErrorOptions) {
    super([problem], options);
    this.message = problem;
  }
}

function listenProblem(error: unknown, config: ServiceConfig): unknown {
  const problem = describeListenProblem(error, "svc-entitlement", `${config.host}:${config.port}`);
  return problem === null ? error : new ListenProblem(problem, { cause: error });
}

async function openStore(config: ServiceConfig): Promise<LedgerStore> {
  if (config.databaseUrl) return PostgresLedgerStore.open(config.databaseUrl, { poolMax: config.pgPoolMax });
  return SqliteLedgerStore.open(config.sqlitePath);
}

/** Embedded mode without SVC_ADMIN_TOKENS: one generated token in `<dataDir>/admin-token` (0600), never logged. */
function loadOrCreateAdminToken(dataDir: string): string {
  const file = join(dataDir, "admin-token");
  try {
    return readFileSync(file, "utf8").trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const token = randomBytes(24).toString("base64url");
  writeFileSync(file, `${token}\n`, { mode: 0o600, flag: "wx" });
  return token;
}

/** One JSON line in pino's format (pino is not up yet), so log shippers read it like the others. */
function logDirectoryTightening(path: string, result: DirectoryTightening): void {
  if (result.outcome === "private") return;
  const line =
    result.outcome === "tightened"
      ? {
          path,
          mode_was: result.modeWas.toString(8),
          mode: "700",
          msg: "tightened data directory permissions",
        }
      : {
          path,
          mode: result.mode.toString(8),
          msg: "data directory is not owned by this user and stays as it is; its files are 0600",
        };
  process.stdout.write(`${JSON.stringify({ level: 40, time: Date.now(), ...line })}\n`);
}
