import { type ChildProcess, execFile, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

export const BIN = fileURLToPath(new URL("../bin/svc-entitlement.ts", import.meta.url));

/** The real bin as a child process, with its output kept for inspection. */
export interface SpawnedService {
  readonly child: ChildProcess;
  readonly url: string;
  /** stdout + stderr so far. */
  output(): string;
  exited: Promise<number | null>;
}

/** Spawns `svc-entitlement serve` and waits for the contract's "listening" line. */
export async function spawnService(env: Record<string, string>): Promise<SpawnedService> {
  const child = spawn(process.execPath, [BIN], {
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`service did not start:\n${output}`));
    }, 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /"url":"(http:\/\/127\.0\.0\.1:\d+)"[^\n]*"msg":"listening"/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1] as string);
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    exited.then((code) => reject(new Error(`service exited ${code}:\n${output}`)));
  });
  return { child, url, output: () => output, exited };
}

/** Runs `svc-entitlement mint-dev-token` and returns the token. */
export async function mintWithBin(args: string[], env: Record<string, string> = {}): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [BIN, "mint-dev-token", ...args], {
    env: { ...process.env, ...env },
  });
  return stdout.trim();
}

/** A dev token for `principal` naming `audience`, signed with the dev issuer key in `dataDir`. */
export function mintDevTokenFor(principal: string, audience: string, dataDir: string): Promise<string> {
  return mintWithBin(["--principal", principal, "--audience", audience, "--data-dir", dataDir]);
}

/** Issues `runs` runs to `principal` through the service at `url`; fails unless answered 200. */
export async function grantRuns(
  url: string,
  adminToken: string,
  principal: string,
  runs: number,
): Promise<void> {
  const response = await fetch(`${url}/api/entitlement/issue`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-svc-admin-token": adminToken },
    body: JSON.stringify({ principal, runs }),
  });
  if (response.status !== 200) throw new Error(`issue answered ${response.status}: ${await response.text()}`);
}

/**
 * Spawns the service on the SQLite ledger in `dataDir`, grants `principal` `runs` runs with the
 * admin token the service wrote there, and mints the principal a dev token for it.
 */
export async function spawnGrantedService(
  dataDir: string,
  principal: string,
  runs: number,
): Promise<{ service: SpawnedService; adminToken: string; token: string }> {
  const service = await spawnService({ SVC_DATA_DIR: dataDir });
  const adminToken = readFileSync(join(dataDir, "admin-token"), "utf8").trim();
  const token = await mintDevTokenFor(principal, service.url, dataDir);
  await grantRuns(service.url, adminToken, principal, runs);
  return { service, adminToken, token };
}

/** POST /api/entitlement/consume for run `runId` of project `p` (standard mode, computational) with `token`. */
export function consumeRun(url: string, token: string, runId: string): Promise<Response> {
  return fetch(`${url}/api/entitlement/consume`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ run_id: runId, project_id: "p", mode: "standard", module_id: "computational" }),
  });
}
