/**
 * The one error shape of every package (issue 29 item 5, ARCHITECTURE.md convention 6): a stable
 * `code` callers switch on (never the message), a message for people, and — when another failure
 * led to it — that failure as the standard `cause` (ES2022 `ErrorOptions`), so logs and debuggers
 * keep the chain. Each package's error class extends this with its own code union; what a code
 * means at an edge (HTTP status, exit code, the action to print) lives in that package's registry.
 */
export class CodedError<Code extends string> extends Error {
  readonly code: Code;

  constructor(code: Code, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
    // The subclass's own name (CliError, RunnerError, ...), as stack traces and logs print it.
    this.name = new.target.name;
  }
}
