import {
  healthResponseSchema,
  outputListResponseSchema,
  pipelineRunResponseSchema,
  podListResponseSchema,
  preflightErrorBodySchema,
  RUN_FILES,
  runCheckResponseSchema,
  runDetailResponseSchema,
  runListResponseSchema,
} from "@svc/core";
import { z } from "zod";
import { smokeBodySchema } from "../routes/module-routes.ts";
import { pipelineBodySchema } from "../routes/pipeline-routes.ts";

interface ParamDoc {
  name: string;
  in: "query" | "path" | "header";
  required?: boolean;
  description: string;
}

/** One documented endpoint; `path` uses OpenAPI `{param}` syntax. */
export interface EndpointDoc {
  method: "get" | "post";
  path: string;
  summary: string;
  tag: string;
  auth: boolean;
  params?: ParamDoc[];
  body?: z.ZodType;
  /** JSON answer, or a raw media type with a description. */
  response:
    | { status: number; schema: z.ZodType }
    | { status: number; mediaType: string; description: string };
  errors: number[];
}

function jsonSchema(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { target: "openapi-3.0", io, unrepresentable: "any" }) as Record<
    string,
    unknown
  >;
  delete json.$schema;
  return json;
}

const q = (name: string, description: string, required = false): ParamDoc => ({
  name,
  in: "query",
  required,
  description,
});
const runIdPath: ParamDoc = { name: "runId", in: "path", required: true, description: "the run id" };
const namespaceOpt = q("namespace", "one allowed namespace; default every allowed namespace");

/** Every endpoint of the service (spec §4.2 plus issue 14), in the order the document lists them. */
export const ENDPOINTS: readonly EndpointDoc[] = [
  {
    method: "get",
    path: "/api/health",
    summary: "Liveness",
    tag: "probes",
    auth: false,
    response: { status: 200, schema: healthResponseSchema },
    errors: [],
  },
  {
    method: "get",
    path: "/api/ready",
    summary:
      "Readiness: the service reaches Kubernetes with its own identity (one Job list, at most every 5 s)",
    tag: "probes",
    auth: false,
    response: {
      status: 200,
      schema: z.object({
        status: z.literal("ready"),
        kubernetes: z.object({
          reachable: z.literal(true),
          source: z.string(),
          inCluster: z.boolean(),
          namespace: z.string(),
        }),
      }),
    },
    errors: [403, 502, 503],
  },
  {
    method: "get",
    path: "/api/config",
    summary: "Runtime wiring: Kubernetes, storage, runner integration, namespaces, auth (never a token)",
    tag: "probes",
    auth: false,
    response: { status: 200, schema: z.record(z.string(), z.unknown()) },
    errors: [],
  },
  {
    method: "get",
    path: "/api/modules",
    summary: "Module registry, including computational",
    tag: "probes",
    auth: false,
    response: { status: 200, schema: z.object({ modules: z.array(z.record(z.string(), z.unknown())) }) },
    errors: [],
  },
  {
    method: "get",
    path: "/openapi.json",
    summary: "This document",
    tag: "probes",
    auth: false,
    response: { status: 200, schema: z.record(z.string(), z.unknown()) },
    errors: [],
  },
  {
    method: "get",
    path: "/metrics",
    summary: "Prometheus metrics: requests, launched Jobs, streamed bytes",
    tag: "probes",
    auth: false,
    response: {
      status: 200,
      mediaType: "text/plain",
      description: "Prometheus text exposition format 0.0.4",
    },
    errors: [],
  },
  {
    method: "get",
    path: "/api/runs/check",
    summary: "Which required output files of a run exist (spec §4.2 rule 3)",
    tag: "runs",
    auth: true,
    params: [
      q("runId", "the run id", true),
      q("paths", "comma-separated relative output paths; default the two of spec §4.2 rule 3"),
    ],
    response: { status: 200, schema: runCheckResponseSchema },
    errors: [400, 401],
  },
  {
    method: "get",
    path: "/api/runs",
    summary: "Runs in the output root and pipeline Jobs this service launched, newest first, with state",
    tag: "runs",
    auth: true,
    params: [namespaceOpt, q("limit", "at most this many runs (1-1000, default 100)")],
    response: { status: 200, schema: runListResponseSchema },
    errors: [400, 401, 403, 502],
  },
  {
    method: "get",
    path: "/api/runs/{runId}",
    summary: "One run: Job, pods and phases, seal status, summary highlights",
    tag: "runs",
    auth: true,
    params: [runIdPath, namespaceOpt],
    response: { status: 200, schema: runDetailResponseSchema },
    errors: [400, 401, 403, 404, 502],
  },
  {
    method: "get",
    path: "/api/runs/{runId}/logs",
    summary: "The run's container log, streamed; follow=true until the container ends",
    tag: "runs",
    auth: true,
    params: [
      runIdPath,
      namespaceOpt,
      q("container", "container name; default the pod's first container"),
      q("pod", "pod of the run's Job; default the newest"),
      q("follow", "true keeps the stream open until the container terminates"),
      q("tailLines", "only the last N lines (1-100000)"),
    ],
    response: {
      status: 200,
      mediaType: "text/plain",
      description: "log text; headers x-svc-pod and x-svc-container name what is streamed",
    },
    errors: [400, 401, 403, 404, 409, 502, 503],
  },
  {
    method: "post",
    path: "/api/modules/computational/smoke",
    summary: "Launch a short-lived Job running the smoke command (no scientific run)",
    tag: "modules",
    auth: true,
    body: smokeBodySchema,
    response: { status: 201, schema: z.record(z.string(), z.unknown()) },
    errors: [400, 401, 403, 415, 502, 503],
  },
  {
    method: "get",
    path: "/api/modules/computational/status",
    summary: "Runner image, service account and the latest smoke verification state",
    tag: "modules",
    auth: true,
    params: [q("namespace", "namespace", true)],
    response: { status: 200, schema: z.record(z.string(), z.unknown()) },
    errors: [400, 401, 403, 502, 503],
  },
  {
    method: "post",
    path: "/api/pipeline/run",
    summary: "Launch a Job for a pipeline run",
    tag: "runs",
    auth: true,
    body: pipelineBodySchema,
    response: { status: 201, schema: pipelineRunResponseSchema },
    errors: [400, 401, 403, 409, 415, 422, 502, 503],
  },
  {
    method: "get",
    path: "/api/k8s/pods",
    summary: "Pods of a namespace: names, phases, containers, start times",
    tag: "kubernetes",
    auth: true,
    params: [
      q("namespace", "namespace", true),
      q("jobName", "pods of this Job"),
      q("label", "label selector"),
      q("context", "kubeconfig context"),
    ],
    response: { status: 200, schema: podListResponseSchema },
    errors: [400, 401, 403, 404, 502, 503],
  },
  {
    method: "get",
    path: "/api/outputs/list",
    summary: "Listing of a run's outputs (well-known directories first)",
    tag: "outputs",
    auth: true,
    params: [q("runId", "the run id", true), q("prefix", "relative prefix")],
    response: { status: 200, schema: outputListResponseSchema },
    errors: [400, 401, 404],
  },
  {
    method: "get",
    path: "/api/outputs/download",
    summary: "One file of a run; Range (one range), If-Range and If-None-Match honoured",
    tag: "outputs",
    auth: true,
    params: [q("runId", "the run id", true), q("path", "relative path under the run", true)],
    response: {
      status: 200,
      mediaType: "application/octet-stream",
      description: "the file (206 for a range)",
    },
    errors: [400, 401, 404, 416],
  },
  {
    method: "get",
    path: "/api/outputs/repro-pack.tgz",
    summary: `Deterministic gzip tar of the run's ${RUN_FILES.reproPackDir}`,
    tag: "outputs",
    auth: true,
    params: [q("runId", "the run id", true)],
    response: { status: 200, mediaType: "application/gzip", description: "the archive" },
    errors: [400, 401, 404],
  },
];

const errorResponse = {
  description: "error",
  content: { "application/json": { schema: jsonSchema(preflightErrorBodySchema, "output") } },
};

/** The OpenAPI 3.0 document served at `/openapi.json` and checked in as `openapi.json`. */
export function buildOpenApiDocument(version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const endpoint of ENDPOINTS) {
    const responses: Record<string, unknown> = {};
    const ok = endpoint.response;
    responses[String(ok.status)] =
      "schema" in ok
        ? {
            description: "success",
            content: { "application/json": { schema: jsonSchema(ok.schema, "output") } },
          }
        : { description: ok.description, content: { [ok.mediaType]: { schema: { type: "string" } } } };
    for (const status of endpoint.errors) responses[String(status)] = errorResponse;
    const operation: Record<string, unknown> = {
      summary: endpoint.summary,
      tags: [endpoint.tag],
      ...(endpoint.auth ? { security: [{ bearer: [] }] } : {}),
      ...(endpoint.params
        ? {
            parameters: endpoint.params.map((param) => ({
              name: param.name,
              in: param.in,
              required: param.required ?? false,
              description: param.description,
              schema: { type: "string" },
            })),
          }
        : {}),
      ...(endpoint.body
        ? {
            requestBody: {
              required: true,
              content: { "application/json": { schema: jsonSchema(endpoint.body, "input") } },
            },
          }
        : {}),
      responses,
    };
    paths[endpoint.path] = { ...paths[endpoint.path], [endpoint.method]: operation };
  }
  return {
    openapi: "3.0.3",
    info: {
      title: "svc preflight service",
      version,
      description:
        "Deployment checks, pipeline launch, runs, logs and outputs (spec §4.2). Errors: { error: { code, message, request_id } }.",
    },
    components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
    paths,
  };
}
