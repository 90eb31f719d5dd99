import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before } from "node:test";
import { exportPrivateKeyPem, generateSigningKey } from "@svc/core";
import { startTestPostgres, type TestPostgres } from "@svc/testing";
import { type SpawnedService, spawnService } from "./spawn-service.ts";

/** Two service processes sharing one PostgreSQL database, one signing key and one data folder. */
export interface SharedPostgresServices {
  readonly services: SpawnedService[];
  readonly databaseUrl: string;
  readonly dataDir: string;
  readonly adminToken: string;
  readonly publicUrl: string;
}

/**
 * Starts a test PostgreSQL with database `database` and two `svc-entitlement` processes on it
 * before the suite's first test, one after the other (the second also runs the already applied
 * migrations); stops them after its last. Called in a describe body, so node:test attaches the
 * hooks to that suite. The fields are set once the `before` hook has run.
 */
export function sharedPostgresServices(
  database: string,
  extraEnv: Record<string, string> = {},
): SharedPostgresServices {
  const dataDir = mkdtempSync(join(tmpdir(), `svc-entitlement-${database}-`));
  let postgres: TestPostgres | undefined;
  const stand = {
    services: [] as SpawnedService[],
    databaseUrl: "",
    dataDir,
    adminToken: `${database}-admin-token-0123456789`,
    publicUrl: "http://entitlement.test",
  };
  before(async () => {
    postgres = await startTestPostgres();
    stand.databaseUrl = await postgres.createDatabase(database);
    const keyFile = join(dataDir, "signing-key.pem");
    writeFileSync(keyFile, exportPrivateKeyPem(generateSigningKey()), { mode: 0o600 });
    const env = {
      SVC_DATABASE_URL: stand.databaseUrl,
      SVC_ADMIN_TOKENS: stand.adminToken,
      SVC_SIGNING_KEY_FILE: keyFile,
      SVC_TRUSTED_ISSUERS: "dev",
      SVC_PUBLIC_URL: stand.publicUrl,
      SVC_DATA_DIR: dataDir,
      SVC_LOG_LEVEL: "warn",
      ...extraEnv,
    };
    stand.services.push(await spawnService(env));
    stand.services.push(await spawnService(env));
  });
  after(async () => {
    for (const service of stand.services) service.child.kill("SIGTERM");
    await Promise.all(stand.services.map((service) => service.exited));
    await postgres?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return stand;
}
