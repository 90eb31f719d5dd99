import { defineErrorRegistry, registeredErrorClass } from "@svc/core";

/**
 * Every error the preflight service answers with, under its HTTP status, with its default message
 * (ARCHITECTURE.md convention 6, core's one registry factory). The README's error table is kept in
 * step by `errors.test.ts`.
 */
export const ERROR_REGISTRY = defineErrorRegistry({
  400: {
    INVALID_INPUT: "A request parameter is missing or malformed.",
    INVALID_BODY: "The request body is not valid JSON of the expected shape.",
    PATH_REFUSED:
      "The path is not a plain relative path inside the run (no '..', absolute, encoded or NUL parts).",
    KUBE_CONTEXT_UNKNOWN: "The context does not exist in the loaded kubeconfig.",
  },
  401: {
    AUTH_MISSING: "A bearer token is required.",
    AUTH_INVALID: "The bearer token is not valid.",
  },
  403: {
    NAMESPACE_NOT_ALLOWED: "The namespace is not in this service's allow list.",
    KUBE_FORBIDDEN: "Kubernetes RBAC refused the call for the service account.",
  },
  404: {
    ROUTE_NOT_FOUND: "No such endpoint.",
    RUN_NOT_FOUND: "No output directory exists for this run id.",
    OUTPUT_NOT_FOUND: "No such output file or directory in the run.",
    REPRO_PACK_NOT_FOUND: "The run has no repro_pack/ directory yet.",
    KUBE_NOT_FOUND: "Kubernetes reports the object or namespace does not exist.",
    RUN_UNKNOWN: "Neither an output folder nor a Job launched by this service exists for this run id.",
    RUN_JOB_NOT_FOUND:
      "No Job launched by this service exists for this run id (finished Jobs go after SVC_JOB_TTL_SEC).",
  },
  408: {
    REQUEST_TIMEOUT: "The request was not received in time.",
  },
  409: {
    RUN_ALREADY_EXISTS: "A Job for this run id already exists.",
    KUBE_CONFLICT: "Kubernetes reports a conflict with an existing object.",
    LOG_NOT_READY: "The run's pod or container has not started yet; retry shortly.",
    SHARDS_NEED_SHARED_STORAGE:
      "shards > 1 needs a ReadWriteMany claim or cloudstore; this server's claim is ReadWriteOnce.",
  },
  413: {
    PAYLOAD_TOO_LARGE: "The request body is too large.",
  },
  415: {
    UNSUPPORTED_MEDIA_TYPE: "The request body must be application/json.",
  },
  416: {
    RANGE_NOT_SATISFIABLE: "The requested byte range lies outside the file.",
  },
  422: {
    KUBE_INVALID: "Kubernetes rejected the object as invalid.",
  },
  431: {
    HEADERS_TOO_LARGE: "The request's header section is too large.",
  },
  500: {
    INTERNAL: "Internal error; see the service log with the request id.",
  },
  502: {
    KUBE_UNAVAILABLE: "The Kubernetes API could not be reached or answered unexpectedly.",
  },
  503: {
    KUBERNETES_NOT_CONFIGURED:
      "Kubernetes is not configured: no in-cluster service account and no kubeconfig were found.",
    RUNNER_NOT_CONFIGURED: "The runner integration is not configured on the server.",
    SHUTTING_DOWN: "The service is shutting down; retry on another replica.",
  },
});

/** Stable string code of a preflight error. */
export type PreflightErrorCode = keyof typeof ERROR_REGISTRY;

/** The one base error of `@svc/preflight`; translated to HTTP only at the edge (app.ts). */
export class PreflightError extends registeredErrorClass(ERROR_REGISTRY) {
  /** Extra response headers (e.g. `WWW-Authenticate`, `Content-Range`). */
  readonly headers: Record<string, string>;

  constructor(
    code: PreflightErrorCode,
    message?: string,
    headers: Record<string, string> = {},
    options?: ErrorOptions,
  ) {
    super(code, message, options);
    this.headers = headers;
  }
}
