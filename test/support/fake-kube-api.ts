import { writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";

/** An object the fake API server holds, addressed by resource plural, namespace and name. */
export interface StoredObject {
  resource: "secrets" | "persistentvolumeclaims";
  namespace: string;
  body: { metadata: { name: string } } & Record<string, unknown>;
}

export interface FakeKubeApi {
  url: string;
  /** Writes a kubeconfig pointing at this server into `dir` and returns its path. */
  writeKubeconfig(dir: string, namespace: string): Promise<string>;
  close(): Promise<void>;
}

const KINDS = { secrets: "Secret", persistentvolumeclaims: "PersistentVolumeClaim" } as const;

/**
 * The few core/v1 read endpoints Helm's `lookup` uses under `helm template --dry-run=server`:
 * the v1 resource list (for the REST mapping) and GET of one namespaced object. Everything else
 * answers 404, which Helm treats as "not there". Loopback only.
 */
export async function startFakeKubeApi(objects: StoredObject[]): Promise<FakeKubeApi> {
  const server: Server = createServer((request, response) => {
    const send = (status: number, body: unknown): void => {
      response.writeHead(status, { "content-type": "application/json" });
      response.end(JSON.stringify(body));
    };
    const path = (request.url ?? "").split("?")[0];
    if (request.method === "GET" && path === "/api/v1") {
      send(200, {
        kind: "APIResourceList",
        groupVersion: "v1",
        resources: Object.entries(KINDS).map(([name, kind]) => ({
          name,
          singularName: kind.toLowerCase(),
          namespaced: true,
          kind,
          verbs: ["get", "list"],
        })),
      });
      return;
    }
    const match = /^\/api\/v1\/namespaces\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(path ?? "");
    const found =
      request.method === "GET" && match
        ? objects.find(
            (o) => o.namespace === match[1] && o.resource === match[2] && o.body.metadata.name === match[3],
          )
        : undefined;
    if (found) {
      send(200, {
        apiVersion: "v1",
        kind: KINDS[found.resource],
        ...found.body,
        metadata: { ...found.body.metadata, namespace: found.namespace },
      });
      return;
    }
    send(404, { kind: "Status", apiVersion: "v1", status: "Failure", reason: "NotFound", code: 404 });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    async writeKubeconfig(dir, namespace) {
      const path = join(dir, "kubeconfig.yaml");
      await writeFile(
        path,
        [
          "apiVersion: v1",
          "kind: Config",
          `clusters: [{name: fake, cluster: {server: "${url}"}}]`,
          "users: [{name: fake, user: {token: fake-token}}]",
          `contexts: [{name: fake, context: {cluster: fake, user: fake, namespace: ${namespace}}}]`,
          "current-context: fake",
          "",
        ].join("\n"),
        { mode: 0o600 },
      );
      return path;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
