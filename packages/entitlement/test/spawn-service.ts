import { type ChildProcess, execFile, spawn } from "node:child_process";
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
