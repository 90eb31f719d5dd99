import { readFileSync } from "node:fs";
import { parse } from "yaml";

// What the kubectl and helm stand-ins share: the API server and token of the current context of
// $KUBECONFIG (the Kubernetes API double), JSON requests, and kubectl's way of printing a Status.

export interface ApiReply {
  status: number;
  body: Record<string, unknown>;
}

interface Kubeconfig {
  clusters?: { name: string; cluster: { server: string } }[];
  users?: { name: string; user: { token?: string } }[];
  contexts?: { name: string; context: { cluster: string; user: string } }[];
  "current-context"?: string;
}

/** Server and bearer token of the current context of $KUBECONFIG. */
export function kubeTarget(): { server: string; token: string | undefined } {
  const path = process.env.KUBECONFIG;
  if (!path) fail("KUBECONFIG is not set: the stand-ins talk to the API double it names", 1);
  const config = parse(readFileSync(path, "utf8")) as Kubeconfig;
  const context = config.contexts?.find((c) => c.name === config["current-context"])?.context;
  const server = config.clusters?.find((c) => c.name === context?.cluster)?.cluster.server;
  if (!server) fail(`${path}: no server for the current context`, 1);
  return { server, token: config.users?.find((u) => u.name === context?.user)?.user.token };
}

/** One call to the API double; the body is JSON unless `raw` is given (pods/exec stdin). */
export async function api(
  method: string,
  path: string,
  options: { body?: unknown; raw?: Buffer } = {},
): Promise<ApiReply> {
  const { server, token } = kubeTarget();
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  let body: string | Buffer | undefined;
  if (options.raw !== undefined) body = options.raw;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] = "application/json";
  }
  const response = await fetch(`${server}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body }),
  });
  const text = await response.text();
  let parsed: Record<string, unknown> = {};
  try {
    parsed = text.length > 0 ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    parsed = { message: text };
  }
  return { status: response.status, body: parsed };
}

/** kubectl's line for a failed call: `Error from server (NotFound): pods "x" not found`. */
export function serverError(reply: ApiReply): string {
  return `Error from server (${String(reply.body.reason ?? reply.status)}): ${String(reply.body.message ?? "")}`;
}

/** Prints the message on stderr and exits: the stand-in refuses or the call failed. */
export function fail(message: string, code: number): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

/** Reads all of stdin (for `apply -f -` and `exec -i`). */
export async function readStdin(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The REST path of a namespaced kind (Pod → /api/v1/namespaces/NS/pods). */
export function collectionPath(apiVersion: string, kind: string, namespace: string): string {
  const lower = kind.toLowerCase();
  const plural = lower.endsWith("y")
    ? `${lower.slice(0, -1)}ies`
    : lower.endsWith("s")
      ? `${lower}es`
      : `${lower}s`;
  const base = apiVersion.includes("/") ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
  return `${base}/namespaces/${namespace}/${plural}`;
}
