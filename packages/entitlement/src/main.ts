import { randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { ConfigProblemsError, type TrustedKey, toTrustedKey } from "@svc/core";
import { closeGracefully, createLoggerOptions, type ServiceParts, startHttpService } from "@svc/http-edge";
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

/** What `build` opens and `listen` completes: the app and the resources `close` releases. */
interface EntitlementRuntime {
  readonly app: FastifyInstance;
  readonly store: LedgerStore;
  readonly sealVerifier: ReturnType<typeof createSealVerifyPool>;
  readonly keyId: string;
  /** The loopback URL once bound; also the public URL when SVC_PUBLIC_URL is unset. */
  url: string;
  bound(url: string): void;
}

/** The entitlement service's start-up parts, run by http-edge's one runService (issue 41 item 3). */
export const ENTITLEMENT_SERVICE: ServiceParts<ServiceConfig, EntitlementRuntime> = {
  name: "svc-entitlement",
  readConfig(env) {
    const result = readConfig(env);
    if (!result.ok) throw new ConfigProblems(result.problems);
    return result.config;
  },
  build: buildService,
  where: (config) => `${config.host}:${config.port}`,
  async listen(runtime, config) {
    await runtime.app.listen({ port: config.port, host: config.host, listenTextResolver: () => "bound" });
    const address = runtime.app.server.address();
    const port = typeof address === "object" && address !== null ? address.port : config.port;
    runtime.bound(`http://127.0.0.1:${port}`);
    // contract: ONE line with "msg":"listening" and the loopback url, for a parent process to read
    const listening = {
      url: runtime.url,
      public_url: config.publicUrl || runtime.url,
      store: runtime.store.kind,
      key_id: runtime.keyId,
    };
    // pino levels: info = 30; a quieter SVC_LOG_LEVEL must not hide the line a parent waits for
    if (["trace", "debug", "info"].includes(config.logLevel)) runtime.app.log.info(listening, "listening");
    else
      process.stdout.write(
        `${JSON.stringify({ level: 30, time: Date.now(), ...listening, msg: "listening" })}\n`,
      );
  },
  async close(runtime, config) {
    // requests still arriving on kept-alive connections get the 503 envelope, not a half answer
    try {
      await closeGracefully(runtime.app, config.shutdownTimeoutSec * 1000);
    } finally {
      await runtime.sealVerifier.close();
      await runtime.store.close();
    }
  },
};

/** Reads config, builds the real dependencies, listens (ARCHITECTURE.md convention 2): the service in-process. */
export async function startService(env: NodeJS.ProcessEnv = process.env): Promise<RunningService> {
  const { config, service: runtime } = await startHttpService(ENTITLEMENT_SERVICE, env);
  let closing: Promise<void> | undefined;
  return {
    app: runtime.app,
    url: runtime.url,
    close() {
      closing ??= ENTITLEMENT_SERVICE.close(runtime, config);
      return closing;
    },
  };
}

async function buildService(config: ServiceConfig): Promise<EntitlementRuntime> {
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
  const runtime: EntitlementRuntime = {
    app,
    store,
    sealVerifier,
    keyId: signingKey.keyId,
    url: "",
    bound(url) {
      runtime.url = url;
      publicUrl ||= url;
    },
  };
  return runtime;
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
