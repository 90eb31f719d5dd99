import type { z } from "zod";
import { CliError } from "../cli-error.ts";
import { svcCommand } from "../config/svc-command.ts";
import { identifyService } from "./identify-service.ts";

/** A request to one of the platform's services. */
export interface ServiceRequest {
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as is, with `contentType`. */
  raw?: { body: string | Uint8Array; contentType: string };
  signal?: AbortSignal;
  /** Non-2xx statuses the caller handles itself (e.g. 416 when resuming a download). */
  accept?: number[];
}

/** Which service is called, for messages: `preflight` or `entitlement`, and what fixes a credential. */
export interface ServiceTarget {
  service: string;
  baseUrl: string;
  /** What to do when the credentials are refused, e.g. "check the token source of context prod". */
  authHint: string;
}

function errorOf(body: string): { code: string; message: string } | null {
  try {
    const parsed = JSON.parse(body) as { error?: { code?: unknown; message?: unknown } };
    if (typeof parsed.error?.code === "string")
      return { code: parsed.error.code, message: String(parsed.error.message ?? "") };
  } catch {
    // not the error envelope: the status line is reported instead
  }
  return null;
}

/** Sends a request and returns the response when it is 2xx; anything else is a one-line CliError. */
export async function sendRequest(
  target: ServiceTarget,
  path: string,
  request: ServiceRequest = {},
): Promise<Response> {
  const url = new URL(path, target.baseUrl);
  let response: Response;
  try {
    response = await fetch(url, {
      method: request.method ?? (request.json !== undefined || request.raw ? "POST" : "GET"),
      headers: {
        ...(request.json !== undefined ? { "content-type": "application/json" } : {}),
        ...(request.raw ? { "content-type": request.raw.contentType } : {}),
        ...request.headers,
      },
      ...(request.json !== undefined ? { body: JSON.stringify(request.json) } : {}),
      ...(request.raw ? { body: request.raw.body } : {}),
      ...(request.signal ? { signal: request.signal } : {}),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new CliError(
      "SERVICE_UNREACHABLE",
      `cannot reach the ${target.service} service at ${url.origin} (${cause?.code ?? cause?.message ?? (error as Error).message}); check the URL (${svcCommand()} context list) and that the service is running`,
      { cause: error },
    );
  }
  if (response.ok || request.accept?.includes(response.status)) return response;
  const text = await response.text().catch(() => "");
  const envelope = errorOf(text);
  const what = envelope ? `${envelope.code}: ${envelope.message}` : `${response.statusText}`.trim();
  const line = `the ${target.service} service answered ${response.status} ${what}`;
  if (response.status === 401 || response.status === 403)
    throw new CliError("SERVICE_AUTH", `${line}; ${target.authHint}`);
  if (response.status >= 500)
    throw new CliError("SERVICE_FAILED", `${line}; retry, or give its operator the request id`);
  if (response.status === 404) {
    const answering = await identifyService(url.origin);
    if (answering !== null && answering !== target.service)
      throw new CliError(
        "SERVICE_REFUSED",
        `${url.origin} answers like an ${answering} service, not ${target.service} (${line} for ${url.pathname}); set the ${target.service} URL of the context: ${svcCommand()} context add <name> --${target.service}-url <url>`,
      );
  }
  throw new CliError("SERVICE_REFUSED", line);
}

/** Checks a JSON answer against the service's own schema; a mismatch names the field. */
export function parseAnswer<T extends z.ZodType>(
  target: ServiceTarget,
  path: string,
  schema: T,
  json: unknown,
): z.infer<T> {
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new CliError(
    "SERVICE_CONTRACT",
    `the ${target.service} service answered ${path} outside its contract (${issue?.path.join(".") || "body"}: ${issue?.message}); are svc and the service the same version?`,
  );
}

/** A JSON call validated with the service's own zod schema. */
export async function callJson<T extends z.ZodType>(
  target: ServiceTarget,
  path: string,
  schema: T,
  request: ServiceRequest = {},
): Promise<z.infer<T>> {
  const response = await sendRequest(target, path, request);
  let json: unknown;
  try {
    json = await response.json();
  } catch {
    throw new CliError(
      "SERVICE_CONTRACT",
      `the ${target.service} service answered ${path} with a body that is not JSON`,
    );
  }
  return parseAnswer(target, path, schema, json);
}
