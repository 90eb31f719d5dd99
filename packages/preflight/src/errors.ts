import { CodedError } from "@svc/core";

/**
 * Every error the preflight service answers with: stable code -> HTTP status and default message
 * (ARCHITECTURE.md convention 6). The README's error table is kept in step by `errors.test.ts`.
 */
export const ERROR_REGISTRY = {
  INVALID_INPUT: { status: 400, message: "A request parameter is missing or malformed." },
  INVALID_BODY: { status: 400, message: "The request body is not valid JSON of the expected shape." },
  PATH_REFUSED: {
    status: 400,
    message:
      "The path is not a plain relative path inside the run (no '..', absolute, encoded or NUL parts).",
  },
  KUBE_CONTEXT_UNKNOWN: { status: 400, message: "The context does not exist in the loaded kubeconfig." },
  AUTH_MISSING: { status: 401, message: "A bearer token is required." },
  AUTH_INVALID: { status: 401, message: "The bearer token is not valid." },
  NAMESPACE_NOT_ALLOWED: { status: 403, message: "The namespace is not in this service's allow list." },
  KUBE_FORBIDDEN: { status: 403, message: "Kubernetes RBAC refused the call for the service account." },
  ROUTE_NOT_FOUND: { status: 404, message: "No such endpoint." },
  RUN_NOT_FOUND: { status: 404, message: "No output directory exists for this run id." },
  OUTPUT_NOT_FOUND: { status: 404, message: "No such output file or directory in the run." },
  REPRO_PACK_NOT_FOUND: { status: 404, message: "The run has no repro_pack/ directory yet." },
  KUBE_NOT_FOUND: { status: 404, message: "Kubernetes reports the object or namespace does not exist." },
  RUN_UNKNOWN: {
    status: 404,
    message: "Neither an output folder nor a Job launched by this service exists for this run id.",
  },
  RUN_JOB_NOT_FOUND: {
    status: 404,
    message:
      "No Job launched by this service exists for this run id (finished Jobs go after SVC_JOB_TTL_SEC).",
  },
  RUN_ALREADY_EXISTS: { status: 409, message: "A Job for this run id already exists." },
  KUBE_CONFLICT: { status: 409, message: "Kubernetes reports a conflict with an existing object." },
  LOG_NOT_READY: { status: 409, message: "The run's pod or container has not started yet; retry shortly." },
  REQUEST_TIMEOUT: { status: 408, message: "The request was not received in time." },
  PAYLOAD_TOO_LARGE: { status: 413, message: "The request body is too large." },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: "The request body must be application/json." },
  RANGE_NOT_SATISFIABLE: { status: 416, message: "The requested byte range lies outside the file." },
  HEADERS_TOO_LARGE: { status: 431, message: "The request's header section is too large." },
  SHARDS_NEED_SHARED_STORAGE: {
    status: 409,
    message: "shards > 1 needs a ReadWriteMany claim or cloudstore; this server's claim is ReadWriteOnce.",
  },
  KUBE_INVALID: { status: 422, message: "Kubernetes rejected the object as invalid." },
  INTERNAL: { status: 500, message: "Internal error; see the service log with the request id." },
  KUBE_UNAVAILABLE: {
    status: 502,
    message: "The Kubernetes API could not be reached or answered unexpectedly.",
  },
  KUBERNETES_NOT_CONFIGURED: {
    status: 503,
    message: "Kubernetes is not configured: no in-cluster service account and no kubeconfig were found.",
  },
  RUNNER_NOT_CONFIGURED: { status: 503, message: "The runner integration is not configured on the server." },
  SHUTTING_DOWN: { status: 503, message: "The service is shutting down; retry on another replica." },
} as const satisfies Record<string, { status: number; message: string }>;

/** Stable string code of a preflight error. */
export type PreflightErrorCode = keyof typeof ERROR_REGISTRY;

/** The one base error of `@svc/preflight`; translated to HTTP only at the edge (app.ts). */
export class PreflightError extends CodedError<PreflightErrorCode> {
  /** Extra response headers (e.g. `WWW-Authenticate`, `Content-Range`). */
  readonly headers: Record<string, string>;

  constructor(
    code: PreflightErrorCode,
    message?: string,
    headers: Record<string, string> = {},
    options?: ErrorOptions,
  ) {
    super(code, message ?? ERROR_REGISTRY[code].message, options);
    this.headers = headers;
  }

  get status(): number {
    return ERROR_REGISTRY[this.code].status;
  }
}
