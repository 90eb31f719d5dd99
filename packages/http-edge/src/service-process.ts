/** The process a service runs in: its environment, where a refusal is printed, how it ends, its signals. */
export interface ServiceProcess {
  readonly env: NodeJS.ProcessEnv;
  stderr(line: string): void;
  exit(code: number): void;
  onSignal(signal: "SIGTERM" | "SIGINT", handler: () => void): void;
}

/**
 * The real process a service runs in, its one process edge (ARCHITECTURE.md convention 4):
 * `process.env`, stderr, `process.exit` and its signals. runService reads the environment only
 * through this, so tests hand it another.
 */
export const SERVICE_PROCESS: ServiceProcess = {
  env: process.env,
  stderr: (line) => process.stderr.write(`${line}\n`),
  exit: (code) => process.exit(code),
  onSignal: (signal, handler) => process.on(signal, handler),
};
