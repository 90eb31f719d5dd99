import { CodedError } from "./coded-error.ts";

/** What one code means at an HTTP edge: the status it answers with and its default message. */
export interface ErrorCodeEntry {
  readonly status: number;
  readonly message: string;
}

/** A package's stable error codes, each with its entry (ARCHITECTURE.md convention 6). */
export type ErrorRegistry<Code extends string> = Readonly<Record<Code, ErrorCodeEntry>>;

/** The declaration {@link defineErrorRegistry} reads: HTTP status → code → default message. */
export type ErrorCodesByStatus = Readonly<Record<number, Readonly<Record<string, string>>>>;

/** Every code a declaration names, as one string-literal union. */
export type ErrorCodeOf<T extends ErrorCodesByStatus> = { [S in keyof T]: keyof T[S] & string }[keyof T];

/**
 * The one way to declare an error-code registry (fastify `lib/errors.js`, one factory for every
 * code): codes grouped under the HTTP status they answer with, each with its default message, so
 * a status is written once per group and a code cannot have two. Returns the frozen registry
 * `code → { status, message }` the edge, the README test and the error class read.
 */
export function defineErrorRegistry<const T extends ErrorCodesByStatus>(
  byStatus: T,
): ErrorRegistry<ErrorCodeOf<T>> {
  const registry: Record<string, ErrorCodeEntry> = {};
  for (const [status, codes] of Object.entries(byStatus)) {
    for (const [code, message] of Object.entries(codes)) {
      if (code in registry) throw new Error(`error code ${code} is declared under two statuses`);
      registry[code] = Object.freeze({ status: Number(status), message });
    }
  }
  return Object.freeze(registry) as ErrorRegistry<ErrorCodeOf<T>>;
}

/**
 * The base error class of a package whose codes have a registry: a stable `code`, the registry's
 * message unless a more precise one is given, the code's HTTP `status`, and the failure that led
 * to it as the standard `cause`. A package declares `class XError extends registeredErrorClass(REGISTRY) {}`.
 */
export function registeredErrorClass<Code extends string>(registry: ErrorRegistry<Code>) {
  return class RegisteredError extends CodedError<Code> {
    constructor(code: Code, message?: string, options?: ErrorOptions) {
      super(code, message ?? registry[code].message, options);
    }

    /** The HTTP status the edge answers this error with. */
    get status(): number {
      return registry[this.code].status;
    }
  };
}
