import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";

/** The entitlement service started as a child process on a free loopback port. */
export interface EntitlementProcess {
  url: string;
  /** SIGTERM, then SIGKILL after 5 s; resolves once it has exited. */
  stop(): Promise<void>;
}

function waitForListening(child: ChildProcess): Promise<string> {
  return new Promise((resolveUrl, reject) => {
    let buffer = "";
    let errors = "";
    const timer = setTimeout(
      () => reject(new Error(`the entitlement service did not start within 30 s\n${errors}`)),
      30_000,
    );
    child.stderr?.on("data", (chunk) => {
      errors += String(chunk);
    });
    child.stdout?.on("data", (chunk) => {
      buffer += String(chunk);
      const lines = buffer.split("\n");
      buffer = lines.pop() ?? "";
      for (const line of lines) {
        if (!line.includes('"listening"')) continue;
        const url = (JSON.parse(line) as { url?: string }).url;
        if (url) {
          clearTimeout(timer);
          resolveUrl(url);
        }
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the entitlement service exited ${code}\n${errors}`));
    });
  });
}

/**
 * Starts `svc-entitlement` in embedded mode (SQLite and the dev issuer in `env.SVC_DATA_DIR`) on
 * PORT=0 and waits for its one "listening" log line, which carries the URL (docs/contracts/entitlement-http.md).
 */
export async function startEntitlementProcess(
  bin: string,
  env: NodeJS.ProcessEnv,
): Promise<EntitlementProcess> {
  const child = spawn(process.execPath, [bin], { env, stdio: ["ignore", "pipe", "pipe"] });
  let url: string;
  try {
    url = await waitForListening(child);
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
  return {
    url,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, "exit");
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
