/** Where `svc` writes: injected so tests capture output and the bin writes to the process streams. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}
