import { errorBodySchema } from "@svc/core";
import { z } from "zod";

/** JSON Schema of a zod schema for the OpenAPI document (OpenAPI 3.0 dialect, input view). */
export function toOpenApiSchema(
  schema: z.ZodType,
  io: "input" | "output" = "output",
): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { target: "openapi-3.0", io, unrepresentable: "any" }) as Record<
    string,
    unknown
  >;
  delete json.$schema;
  return json;
}

const errorSchema = toOpenApiSchema(errorBodySchema);

export interface RouteDoc {
  readonly summary: string;
  readonly tags: string[];
  readonly body?: z.ZodType;
  readonly response?: z.ZodType;
  /** Error statuses this route may answer (all with the error body). */
  readonly errors: number[];
  readonly auth?: "bearer" | "admin" | "bearer-or-admin";
  readonly consumes?: string[];
}

/** Fastify route schema used only for documentation: validation is zod's (see parseStorableBody). */
export function describeRoute(doc: RouteDoc): Record<string, unknown> {
  const response: Record<string, unknown> = {};
  if (doc.response) response[200] = toOpenApiSchema(doc.response);
  for (const status of doc.errors) response[status] = { description: "error", ...errorSchema };
  return {
    summary: doc.summary,
    tags: doc.tags,
    ...(doc.body ? { body: toOpenApiSchema(doc.body, "input") } : {}),
    ...(doc.consumes ? { consumes: doc.consumes } : {}),
    ...(doc.auth === "bearer" ? { security: [{ bearer: [] }] } : {}),
    ...(doc.auth === "admin" ? { security: [{ admin: [] }] } : {}),
    ...(doc.auth === "bearer-or-admin" ? { security: [{ bearer: [] }, { admin: [] }] } : {}),
    response,
  };
}
