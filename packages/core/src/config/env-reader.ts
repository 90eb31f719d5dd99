import { isAbsolute, resolve } from "node:path";

/** An environment to read: `process.env` in `main.ts`, a plain object in tests. */
export type EnvSource = Readonly<Record<string, string | undefined>>;

/** What {@link createEnvReader} needs besides the environment. */
export interface EnvReaderOptions {
  /** Values that win over the environment (a CLI's flags), by variable name; blank = not given. */
  readonly overrides?: Readonly<Record<string, string | undefined>>;
  /** How a problem names a variable (e.g. `--run-id / SVC_RUN_ID`); the name itself by default. */
  readonly labelOf?: (name: string) => string;
  /** The folder relative paths are resolved against ({@link EnvReader.path}); required to read one. */
  readonly cwd?: string;
}

/** A configuration read to the end: frozen, or every problem found (ARCHITECTURE.md convention 4). */
export type EnvReadResult<T> = { ok: true; config: T } | { ok: false; problems: string[] };

/** Options every field reader takes: the value when unset, or the reason it must be set. */
interface FieldOptions<T> {
  readonly fallback?: T;
  /** The variable must be set; the text says when or why (e.g. "when SVC_DATABASE_URL is set"). */
  readonly required?: true | string;
  /** A token or password: a problem gives its length, never the value. */
  readonly secret?: boolean;
}

export interface StringOptions extends FieldOptions<string> {
  /** The value must satisfy this; `expected` says what it must be in the problem. */
  readonly check?: (value: string) => boolean;
  readonly expected?: string;
}

export interface NumberOptions extends FieldOptions<number> {
  readonly min: number;
  readonly max: number;
  /** `min` itself is refused (a timeout of 0 s). */
  readonly minExclusive?: boolean;
}

export interface ListOptions extends FieldOptions<readonly string[]> {
  /** Each item must satisfy this; `expected` says what an item must be. */
  readonly each?: (item: string) => boolean;
  readonly expected?: string;
}

export interface UrlOptions extends FieldOptions<string> {
  /** Accepted schemes with their colon; http: and https: by default. */
  readonly protocols?: readonly string[];
}

export interface PathOptions extends FieldOptions<string> {
  /** Refuse a relative path instead of resolving it against `cwd` (a path inside a container). */
  readonly absolute?: boolean;
}

type Read<T, O> = O extends { fallback: unknown } ? T : T | undefined;

/**
 * Typed readers over one environment that all trim the same way (surrounding whitespace goes; a
 * value blank after trimming is unset), and collect every problem in one format instead of
 * stopping at the first (ARCHITECTURE.md convention 4, fastify `initial-config-validation.js`).
 * A value that fails its check reads as its fallback, so reading can go on to the end.
 */
export interface EnvReader {
  /** The trimmed value; a string that fails `check` is a problem. */
  string<O extends StringOptions>(name: string, options?: O): Read<string, O>;
  /** A whole number from `min` to `max`. */
  int<O extends NumberOptions>(name: string, options: O): Read<number, O>;
  /** A finite number from `min` to `max`. */
  number<O extends NumberOptions>(name: string, options: O): Read<number, O>;
  /** true/1/yes or false/0/no, any case; unset = the fallback, false by default. */
  bool(name: string, options?: { readonly fallback?: boolean }): boolean;
  /** Comma-separated items, each trimmed, blanks dropped; unset (or blank) = the fallback. */
  list<O extends ListOptions>(name: string, options?: O): Read<readonly string[], O>;
  /** An absolute URL of an accepted scheme, as given (an audience is compared as a string). */
  url<O extends UrlOptions>(name: string, options?: O): Read<string, O>;
  /** One of `values`. */
  oneOf<V extends string, O extends FieldOptions<V>>(
    name: string,
    values: readonly V[],
    options?: O,
  ): Read<V, O>;
  /** A file path: relative ones resolved against `cwd`, or refused when `absolute` is set. */
  path<O extends PathOptions>(name: string, options?: O): Read<string, O>;
  /** Records a problem found by a rule across variables, in the one format. */
  problem(name: string, expected: string, got?: string, secret?: boolean): void;
  /** Records problems another validator wrote in full (a file's content, a nested reader). */
  addProblems(problems: readonly string[]): void;
  /** The problems so far (read-only). */
  readonly problems: readonly string[];
  /** The configuration deep-frozen, or every problem recorded. */
  finish<T>(config: T): EnvReadResult<T>;
}

/**
 * The one problem format: `NAME must be EXPECTED (got "VALUE")`, `(got nothing)` when unset, and
 * `(got N hidden characters)` for a secret, whose value must not reach a log.
 */
export function describeEnvProblem(
  label: string,
  expected: string,
  got: string | undefined,
  secret = false,
): string {
  const shown =
    got === undefined ? "nothing" : secret ? `${got.length} hidden characters` : JSON.stringify(got);
  return `${label} must be ${expected} (got ${shown})`;
}

const INTEGER_TEXT = /^[+-]?\d+$/;
const DECIMAL_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** A reader over `env` (pure: it reads only `env` and `options.overrides`, never `process.env`). */
export function createEnvReader(env: EnvSource, options: EnvReaderOptions = {}): EnvReader {
  const problems: string[] = [];
  const labelOf = options.labelOf ?? ((name: string) => name);
  const trimmed = (value: string | undefined) => {
    const text = value?.trim();
    return text === undefined || text === "" ? undefined : text;
  };
  const raw = (name: string) => trimmed(options.overrides?.[name]) ?? trimmed(env[name]);
  const problem = (name: string, expected: string, got?: string, secret?: boolean) => {
    problems.push(describeEnvProblem(labelOf(name), expected, got, secret));
  };
  // Unset: the fallback, or a problem when required. Set: `parse` turns it into a value or
  // reports it and gives the fallback.
  function field<T>(
    name: string,
    opts: FieldOptions<T> | undefined,
    expected: string,
    parse: (text: string) => T | undefined,
  ): T | undefined {
    const text = raw(name);
    if (text === undefined) {
      if (opts?.required !== undefined)
        problem(name, opts.required === true ? expected : `${expected} ${opts.required}`);
      return opts?.fallback;
    }
    const value = parse(text);
    if (value === undefined) {
      problem(name, expected, text, opts?.secret);
      return opts?.fallback;
    }
    return value;
  }
  const numeric = (integer: boolean) => (name: string, opts: NumberOptions) => {
    const range = opts.minExclusive
      ? `above ${opts.min} and at most ${opts.max}`
      : `from ${opts.min} to ${opts.max}`;
    const expected = `${integer ? "an integer" : "a number"} ${range}`;
    return field(name, opts, expected, (text) => {
      // decimal only: Number() would also take 0x1F, 0b11 and Infinity
      if (!(integer ? INTEGER_TEXT : DECIMAL_TEXT).test(text)) return undefined;
      const value = Number(text);
      const inRange = opts.minExclusive ? value > opts.min : value >= opts.min;
      return Number.isFinite(value) && inRange && value <= opts.max && (!integer || Number.isInteger(value))
        ? value
        : undefined;
    });
  };
  const reader = {
    string: (name: string, opts?: StringOptions) =>
      field(name, opts, opts?.expected ?? "a non-empty string", (text) =>
        opts?.check === undefined || opts.check(text) ? text : undefined,
      ),
    int: numeric(true),
    number: numeric(false),
    bool: (name: string, opts?: { readonly fallback?: boolean }) =>
      field(name, { fallback: opts?.fallback ?? false }, "true or false", (text) => {
        const lower = text.toLowerCase();
        if (lower === "true" || lower === "1" || lower === "yes") return true;
        if (lower === "false" || lower === "0" || lower === "no") return false;
        return undefined;
      }) as boolean,
    list: (name: string, opts?: ListOptions) => {
      const expected = `a comma-separated list${opts?.expected ? ` of ${opts.expected}` : ""}`;
      const items = field(name, opts, expected, (text) =>
        text
          .split(",")
          .map((item) => item.trim())
          .filter((item) => item !== ""),
      );
      if (items === undefined || opts?.each === undefined) return items;
      const bad = items.filter((item) => !opts.each?.(item));
      for (const item of bad) problem(name, `a list of ${opts.expected ?? "valid items"}`, item, opts.secret);
      return bad.length > 0 ? opts.fallback : items;
    },
    url: (name: string, opts?: UrlOptions) => {
      const protocols = opts?.protocols ?? ["http:", "https:"];
      const schemes = protocols.map((protocol) => protocol.slice(0, -1)).join(" or ");
      return field(name, opts, `an absolute ${schemes} URL`, (text) => {
        try {
          return protocols.includes(new URL(text).protocol) ? text : undefined;
        } catch {
          return undefined;
        }
      });
    },
    oneOf: <V extends string>(name: string, values: readonly V[], opts?: FieldOptions<V>) =>
      field(name, opts, `one of ${values.join(", ")}`, (text) =>
        (values as readonly string[]).includes(text) ? (text as V) : undefined,
      ),
    path: (name: string, opts?: PathOptions) =>
      field(name, opts, opts?.absolute ? "an absolute path" : "a file path", (text) => {
        if (isAbsolute(text)) return text;
        if (opts?.absolute) return undefined;
        if (options.cwd === undefined)
          throw new Error(`createEnvReader: ${name} is a relative path and no cwd was given`);
        return resolve(options.cwd, text);
      }),
    problem,
    addProblems: (more: readonly string[]) => {
      problems.push(...more);
    },
    get problems(): readonly string[] {
      return problems;
    },
    finish: <T>(config: T): EnvReadResult<T> =>
      problems.length > 0 ? { ok: false, problems: [...problems] } : { ok: true, config: deepFreeze(config) },
  };
  return reader as EnvReader;
}

// Plain objects and arrays all the way down: a configuration nobody can change after start-up.
// Class instances (a parsed key) are left as their class made them.
function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== "object" || Object.isFrozen(value)) return value;
  const prototype = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && prototype !== Object.prototype && prototype !== null) return value;
  for (const inner of Object.values(value)) deepFreeze(inner);
  return Object.freeze(value);
}
