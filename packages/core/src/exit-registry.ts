import { CodedError } from "./coded-error.ts";
import type { ErrorCodeOf } from "./error-registry.ts";

/** What one code means at a process edge: the exit status it ends with and the one line telling the user what to do. */
export interface ExitCodeEntry<Exit extends number = number> {
  readonly exit: Exit;
  readonly action: string;
}

/** A command's stable error codes, each with its exit entry (ARCHITECTURE.md convention 6). */
export type ExitRegistry<Code extends string, Exit extends number = number> = Readonly<
  Record<Code, ExitCodeEntry<Exit>>
>;

/** The declaration {@link defineExitRegistry} reads: exit status → code → action. */
export type ExitCodesByStatus = Readonly<Record<number, Readonly<Record<string, string>>>>;

/** The registry a declaration gives: each code with the exit status it is declared under, as a literal type. */
export type ExitRegistryOf<T extends ExitCodesByStatus> = {
  readonly [C in ErrorCodeOf<T>]: ExitCodeEntry<
    { [S in keyof T]: C extends keyof T[S] ? S : never }[keyof T] & number
  >;
};

/**
 * The one way to declare a command's exit table, the process-edge twin of `defineErrorRegistry`
 * (the same declaration shape: codes grouped under the number the edge answers with, each with its
 * sentence): a code is written under one exit status, so no call site can end it with another
 * (issue 41 item 3). Exit statuses are 0–255 (POSIX `exit`); a code declared twice is refused.
 * Returns the frozen registry `code → { exit, action }` the CLI's or runner's top-level catch,
 * the README tests and the error class read.
 */
export function defineExitRegistry<const T extends ExitCodesByStatus>(byExit: T): ExitRegistryOf<T> {
  const registry: Record<string, ExitCodeEntry> = {};
  for (const [exit, codes] of Object.entries(byExit)) {
    const status = Number(exit);
    if (!Number.isInteger(status) || status < 0 || status > 255)
      throw new Error(`exit status ${exit} is not an integer from 0 to 255`);
    for (const [code, action] of Object.entries(codes)) {
      if (code in registry) throw new Error(`error code ${code} is declared under two exit statuses`);
      registry[code] = Object.freeze({ exit: status, action });
    }
  }
  return Object.freeze(registry) as ExitRegistryOf<T>;
}

/**
 * The base error class of a command whose codes have an exit table: a stable `code`, a message
 * saying what went wrong, and the code's `exitCode` and `action` read from the table — never given
 * at the call site. A command declares `class XError extends exitErrorClass(EXITS) {}`.
 */
export function exitErrorClass<Code extends string, Exit extends number>(registry: ExitRegistry<Code, Exit>) {
  return class ExitError extends CodedError<Code> {
    /** The exit status the command's top-level catch ends with. */
    get exitCode(): Exit {
      return registry[this.code].exit;
    }

    /** The one line telling the user what to do, printed after the message. */
    get action(): string {
      return registry[this.code].action;
    }
  };
}
