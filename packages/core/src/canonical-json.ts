import { CoreError } from "./core-error.ts";

/**
 * Canonical JSON for signed payloads: RFC 8785 (JCS) restricted to the subset where it
 * coincides byte for byte with Python's
 * `json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)`:
 * strings, safe integers, booleans, null, arrays and plain objects with ASCII keys.
 * Floats are refused because the two serialisations differ on them (RFC 8785 §3.2.2.3).
 */
export type CanonicalValue =
  | string
  | number
  | boolean
  | null
  | readonly CanonicalValue[]
  | { readonly [key: string]: CanonicalValue };

const ASCII_ONLY = /^[\x20-\x7e]*$/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Serialises `value` canonically; throws `CANONICAL_JSON_UNSUPPORTED` naming the offending path. */
export function canonicalize(value: unknown): string {
  return serialize(value, "$");
}

/** UTF-8 bytes of {@link canonicalize}: what gets signed. */
export function canonicalBytes(value: unknown): Buffer {
  return Buffer.from(canonicalize(value), "utf8");
}

function serialize(value: unknown, path: string): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "boolean":
      return value ? "true" : "false";
    case "string":
      return serializeString(value, path);
    case "number":
      return serializeInteger(value, path);
    case "object":
      return Array.isArray(value) ? serializeArray(value, path) : serializeObject(value, path);
    default:
      throw unsupported(path, `a ${typeof value} has no canonical JSON form`);
  }
}

function serializeString(value: string, path: string): string {
  // RFC 8785 §3.2.2.2: JSON.stringify's escaping is exactly the JCS one for well-formed strings.
  if (LONE_SURROGATE.test(value)) throw unsupported(path, "string contains a lone surrogate");
  return JSON.stringify(value);
}

function serializeInteger(value: number, path: string): string {
  if (!Number.isFinite(value)) throw unsupported(path, "NaN and Infinity are not JSON");
  if (!Number.isInteger(value)) throw unsupported(path, "floats are not allowed in signed payloads");
  if (!Number.isSafeInteger(value)) throw unsupported(path, "integer outside the IEEE-754 safe range");
  return Object.is(value, -0) ? "0" : String(value);
}

function serializeArray(value: readonly unknown[], path: string): string {
  return `[${value.map((item, index) => serialize(item, `${path}[${index}]`)).join(",")}]`;
}

function serializeObject(value: object, path: string): string {
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) {
    throw unsupported(path, "only plain objects are allowed");
  }
  const entries = Object.entries(value as Record<string, unknown>);
  for (const [key, item] of entries) {
    if (!ASCII_ONLY.test(key)) throw unsupported(`${path}.${key}`, "object keys must be printable ASCII");
    if (item === undefined) throw unsupported(`${path}.${key}`, "undefined has no JSON form");
  }
  // ASCII keys: UTF-16 order (RFC 8785 §3.2.3) equals Python's code point order.
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const members = entries.map(([key, item]) => `${JSON.stringify(key)}:${serialize(item, `${path}.${key}`)}`);
  return `{${members.join(",")}}`;
}

function unsupported(path: string, why: string): CoreError {
  return new CoreError("CANONICAL_JSON_UNSUPPORTED", `${path}: ${why}`);
}
