import type { z } from "zod";
import { PreflightError } from "./errors.ts";

/** Query parameters as single strings; a repeated parameter is refused rather than guessed at. */
export function readQuery(query: unknown, allowed: readonly string[]): Record<string, string | undefined> {
  const result: Record<string, string | undefined> = {};
  const source = (query ?? {}) as Record<string, unknown>;
  for (const [name, value] of Object.entries(source)) {
    if (!allowed.includes(name)) continue;
    if (typeof value !== "string") throw new PreflightError("INVALID_INPUT", `${name} must be given once`);
    result[name] = value;
  }
  return result;
}

/** A required query parameter: 400 naming it when absent or empty. */
export function requireParam(query: Record<string, string | undefined>, name: string): string {
  const value = query[name];
  if (value === undefined || value === "") throw new PreflightError("INVALID_INPUT", `${name} is required`);
  return value;
}

/** Parses a JSON body with a zod schema; the 400 names the first offending field. */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  if (body === undefined || body === null || typeof body !== "object" || Array.isArray(body))
    throw new PreflightError("INVALID_BODY", "the body must be a JSON object");
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join(".") || "body";
    throw new PreflightError("INVALID_BODY", `${field}: ${issue?.message ?? "invalid"}`);
  }
  return parsed.data;
}
