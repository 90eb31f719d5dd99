import { type ChildProcess, execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before } from "node:test";
import { promisify } from "node:util";
import type { TrustedKey } from "@svc/core";
import { type CliResult, type RunArgs, runArgs, runCli } from "./run-cli.ts";

const REPO = join(import.meta.dirname, "..", "..", "..", "..");
const ENTITLEMENT_BIN = join(REPO, "packages", "entitlement", "bin", "svc-entitlement.ts");
const ADMIN_TOKEN = "e2e-admin-token-0123456789abcdef";

/**
 * The real entitlement service process for e2e tests. There is deliberately no fallback to a
 * fake: an e2e run that cannot start the real service fails instead of passing against less.
 */
export interface TestEntitlement {
  readonly url: string;
  grant(principal: string, runs: number, mode?: "standard" | "deep"): Promise<void>;
  /** A dev-issuer token; `ttlSec` (default the CLI's 3600) must outlast the longest run that uses it. */
  tokenFor(principal: string, ttlSec?: number): Promise<string>;
  trustedKeys(): Promise<TrustedKey[]>;
  /** The ledger as `token`'s holder sees it for `runId` of project demo: runs left, and whether the run id was consumed. */
  check(token: string, runId: string): Promise<LedgerView>;
  close(): Promise<void>;
}

export interface LedgerView {
  readonly runs_remaining: number;
  readonly already_consumed: boolean;
}

/** Starts the service; `extraEnv` adds configuration such as SVC_TRUSTED_ISSUERS. */
export async function startTestEntitlement(extraEnv: Record<string, string> = {}): Promise<TestEntitlement> {
  if (!existsSync(ENTITLEMENT_BIN))
    throw new Error(`the entitlement service bin is missing: ${ENTITLEMENT_BIN}`);
  return startReal(extraEnv);
}

async function startReal(extraEnv: Record<string, string>): Promise<TestEntitlement> {
  const dataDir = await mkdtemp(join(tmpdir(), "svc-ent-e2e-"));
  const env = {
    ...process.env,
    PORT: "0",
    HOST: "127.0.0.1",
    SVC_DATA_DIR: dataDir,
    SVC_ADMIN_TOKENS: ADMIN_TOKEN,
    SVC_SHUTDOWN_TIMEOUT_SEC: "2",
    ...extraEnv,
  };
  const child: ChildProcess = spawn(process.execPath, [ENTITLEMENT_BIN], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const url = await waitForListening(child).catch(async (error: unknown) => {
    // A service that never came up leaves nothing behind either (its data folder included).
    child.kill("SIGKILL");
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  });
  const run = promisify(execFile);
  return {
    url,
    grant: async (principal, runs, mode = "standard") => {
      const response = await fetch(new URL("/api/entitlement/issue", url), {
        method: "POST",
        headers: { "content-type": "application/json", "x-svc-admin-token": ADMIN_TOKEN },
        body: JSON.stringify({ principal, runs, mode }),
      });
      if (!response.ok) throw new Error(`issue failed: ${response.status} ${await response.text()}`);
    },
    tokenFor: async (principal, ttlSec) => {
      const { stdout } = await run(
        process.execPath,
        [
          ENTITLEMENT_BIN,
          "mint-dev-token",
          "--principal",
          principal,
          "--audience",
          url,
          "--data-dir",
          dataDir,
          ...(ttlSec === undefined ? [] : ["--ttl-sec", String(ttlSec)]),
        ],
        { env },
      );
      return stdout.trim();
    },
    check: async (token, runId) => {
      const response = await fetch(new URL("/api/entitlement/check", url), {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify({
          run_id: runId,
          project_id: "demo",
          mode: "standard",
          module_id: "computational",
        }),
      });
      if (response.status !== 200)
        throw new Error(`check failed: ${response.status} ${await response.text()}`);
      return (await response.json()) as LedgerView;
    },
    trustedKeys: async () =>
      ((await (await fetch(new URL("/api/seal/keys", url))).json()) as { keys: TrustedKey[] }).keys,
    close: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = once(child, "exit");
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
        await exited;
        clearTimeout(timer);
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The entitlement side of one e2e test file: the service, a recording proxy in front of it, a token. */
export interface FileEntitlement {
  readonly service: TestEntitlement;
  readonly proxy: RecordingProxy;
  /** A dev token for the file's principal, which holds the runs granted. */
  readonly token: string;
  /** svc-runner on the staged demo as run `runId`, its calls through the proxy, with the file's token. */
  run(staged: RunArgs["staged"], runId: string, extra?: readonly string[]): Promise<CliResult>;
}

/**
 * Starts the real service and a recording proxy before the file's first test, mints a token for
 * `principal` and grants it `runs` runs of `mode`; closes both after the last test. Called at module load,
 * so node:test attaches the hooks to the file. The fields are set once the `before` hook has run.
 */
export function entitlementForFile(
  principal: string,
  runs: number,
  mode: "standard" | "deep" = "standard",
): FileEntitlement {
  const stand = {
    run: (staged, runId, extra = []) =>
      runCli(
        runArgs({ runId, staged, entitlementUrl: stand.proxy.url, audience: stand.service.url, extra }),
        {
          SVC_DEV_TOKEN: stand.token,
        },
      ),
  } as { -readonly [K in keyof FileEntitlement]: FileEntitlement[K] };
  before(async () => {
    stand.service = await startTestEntitlement();
    stand.proxy = await startRecordingProxy(stand.service.url);
    stand.token = await stand.service.tokenFor(principal);
    await stand.service.grant(principal, runs, mode);
  });
  after(async () => {
    await stand.proxy?.close();
    await stand.service?.close();
  });
  return stand;
}

/**
 * svc-runner with the flags `args(url)` against a second, fresh service at `url` that grants
 * `principal` one run (closed when the test ends): the reference run of a comparison.
 */
export async function runOnAnotherService(
  t: { after: (fn: () => Promise<void>) => void },
  principal: string,
  args: (url: string) => string[],
): Promise<CliResult> {
  const other = await startTestEntitlement();
  t.after(() => other.close());
  await other.grant(principal, 1);
  return runCli(args(other.url), { SVC_DEV_TOKEN: await other.tokenFor(principal) });
}

/** Reads the service's stdout until its one JSON "listening" line names the url. */
export function waitForListening(child: ChildProcess, timeoutMs = 20_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = "";
    let stderr = "";
    const timer = setTimeout(() => reject(new Error(`entitlement did not start: ${stderr}`)), timeoutMs);
    child.stderr?.on("data", (chunk) => {
      stderr += String(chunk);
    });
    child.stdout?.on("data", (chunk) => {
      buffer += String(chunk);
      for (const line of buffer.split("\n")) {
        if (!line.includes('"listening"')) continue;
        try {
          const url = (JSON.parse(line) as { url?: string }).url;
          if (url) {
            clearTimeout(timer);
            child.stdout?.removeAllListeners("data");
            child.stdout?.resume();
            resolve(url);
            return;
          }
        } catch {}
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`entitlement exited ${code}: ${stderr}`));
    });
  });
}

/**
 * A loopback HTTP proxy that records request paths and, for chosen paths, drops the connection,
 * drops the reply or strips the credentials.
 */
export interface RecordingProxy {
  readonly url: string;
  readonly paths: string[];
  /** Paths whose requests are cut before they reach the service. */
  readonly drop: Set<string>;
  /** Paths forwarded to the service whose reply is then cut: the call happened, the answer is lost. */
  readonly dropReply: Set<string>;
  /** Paths forwarded without their Authorization header: the real service refuses them, 401. */
  readonly stripAuth: Set<string>;
  /** Awaited when a request for the path arrives, before it is forwarded (or dropped). */
  readonly before: Map<string, () => Promise<void>>;
  close(): Promise<void>;
}

export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const paths: string[] = [];
  const drop = new Set<string>();
  const dropReply = new Set<string>();
  const stripAuth = new Set<string>();
  const before = new Map<string, () => Promise<void>>();
  const upstream = new URL(target);
  const server: Server = createServer(async (req, res) => {
    const path = req.url ?? "/";
    paths.push(path);
    // The runner waits for this answer: what the hook sees is the folder as the call found it.
    await before.get(path)?.();
    if (drop.has(path)) {
      req.socket.destroy();
      return;
    }
    const headers = { ...req.headers };
    if (stripAuth.has(path)) delete headers.authorization;
    const forward = request(
      { host: upstream.hostname, port: upstream.port, path, method: req.method, headers },
      (answer) => {
        if (dropReply.has(path)) {
          answer.resume();
          answer.on("end", () => req.socket.destroy());
          return;
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on("error", () => res.destroy());
    req.pipe(forward);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    paths,
    drop,
    dropReply,
    stripAuth,
    before,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}
