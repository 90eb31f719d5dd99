// The API server's failure answers: a `Status` object (kind Status, reason, code) with the
// message grammar kubectl and client libraries print — `jobs.batch "x" not found`.

/** One answer of the double: status code and JSON body (or a streamed container log). */
export interface Reply {
  status: number;
  body: unknown;
  /** Set for a `pods/log` answer: the body is the container's log, streamed. */
  podLog?: { namespace: string; pod: string; container: string; follow: boolean; tailLines?: number };
}

export function statusBody(
  code: number,
  reason: string,
  message: string,
  details?: Record<string, unknown>,
): Reply {
  return {
    status: code,
    body: {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message,
      reason,
      ...(details ? { details } : {}),
      code,
    },
  };
}

/** `jobs.batch`, `secrets`: how the API server names a resource of a group in its messages. */
export function qualifiedResource(resource: string, group: string): string {
  return group === "" ? resource : `${resource}.${group}`;
}

export function notFound(resource: string, group: string, name: string): Reply {
  return statusBody(404, "NotFound", `${qualifiedResource(resource, group)} "${name}" not found`, {
    name,
    group,
    kind: resource,
  });
}

export function alreadyExists(resource: string, group: string, name: string): Reply {
  return statusBody(409, "AlreadyExists", `${qualifiedResource(resource, group)} "${name}" already exists`, {
    name,
    group,
    kind: resource,
  });
}
