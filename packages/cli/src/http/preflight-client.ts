import {
  healthResponseSchema,
  outputListResponseSchema,
  pipelineRunResponseSchema,
  runDetailResponseSchema,
  runListResponseSchema,
} from "@svc/core";
import type { z } from "zod";
import { callJson, type ServiceRequest, type ServiceTarget, sendRequest } from "./service-call.ts";

/** A pipeline launch as `POST /api/pipeline/run` takes it (spec §4.2). */
export interface LaunchRequest {
  projectId: string;
  namespace: string;
  runId?: string;
  mode?: "standard" | "deep";
  gpuDocking?: boolean;
}

/** The preflight service's HTTP API as `svc` uses it; JSON answers checked with the service's schemas. */
export interface PreflightClient {
  readonly target: ServiceTarget;
  health(): Promise<z.infer<typeof healthResponseSchema>>;
  launch(request: LaunchRequest): Promise<z.infer<typeof pipelineRunResponseSchema>>;
  listRuns(query: { namespace?: string; limit?: number }): Promise<z.infer<typeof runListResponseSchema>>;
  getRun(runId: string, namespace?: string): Promise<z.infer<typeof runDetailResponseSchema>>;
  listOutputs(runId: string, prefix?: string): Promise<z.infer<typeof outputListResponseSchema>>;
  /** A streamed endpoint (logs, download, repro pack): the raw 2xx response. */
  stream(
    path: string,
    query: Record<string, string | undefined>,
    request?: ServiceRequest,
  ): Promise<Response>;
}

function withQuery(path: string, query: Record<string, string | number | boolean | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

/** Builds the client; `token` null when the deployment disabled auth. */
export function createPreflightClient(
  baseUrl: string,
  token: string | null,
  authHint: string,
): PreflightClient {
  const target: ServiceTarget = { service: "preflight", baseUrl, authHint };
  const auth: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  return {
    target,
    health: () => callJson(target, "/api/health", healthResponseSchema),
    launch: (request) =>
      callJson(target, "/api/pipeline/run", pipelineRunResponseSchema, { headers: auth, json: request }),
    listRuns: (query) =>
      callJson(target, withQuery("/api/runs", query), runListResponseSchema, { headers: auth }),
    getRun: (runId, namespace) =>
      callJson(
        target,
        withQuery(`/api/runs/${encodeURIComponent(runId)}`, { namespace }),
        runDetailResponseSchema,
        {
          headers: auth,
        },
      ),
    listOutputs: (runId, prefix) =>
      callJson(target, withQuery("/api/outputs/list", { runId, prefix }), outputListResponseSchema, {
        headers: auth,
      }),
    stream: (path, query, request = {}) =>
      sendRequest(target, withQuery(path, query), { ...request, headers: { ...auth, ...request.headers } }),
  };
}
