import { createTempDir, type KubeApiDouble, startKubeApiDouble, writeKubeconfig } from "@svc/testing";
import type { FastifyInstance } from "fastify";
import { createApp } from "../src/app.ts";
import { loadConfig, type PreflightConfig } from "../src/config.ts";
import { createClientNodeGateway } from "../src/kube/client-node-gateway.ts";

/** The token the harness configures. */
export const TEST_TOKEN = "test-token-0123456789abcdef";

/** A running preflight app on loopback port 0, wired to a Kubernetes API double. */
export interface ServiceHarness {
  app: FastifyInstance;
  config: PreflightConfig;
  double: KubeApiDouble;
  baseUrl: string;
  outputRoot: string;
  /** fetch with the bearer token. */
  call(path: string, init?: RequestInit): Promise<Response>;
  /** Stops the app and the API double and removes every temp dir the harness made; call it from `t.after`. */
  close(): Promise<void>;
}

/** Options of {@link startServiceHarness}. */
export interface HarnessOptions {
  env?: Record<string, string>;
  /** No kubeconfig at all: the service must still start. */
  withoutKube?: boolean;
  contexts?: string[];
}

/** Starts the service through createApp (real HTTP on port 0) against the API double. */
export async function startServiceHarness(options: HarnessOptions = {}): Promise<ServiceHarness> {
  const double = await startKubeApiDouble({ token: "double-sa-token" });
  const outputDir = await createTempDir("svc-preflight-out-");
  const homeDir = await createTempDir("svc-preflight-home-");
  const outputRoot = outputDir.path;
  const home = homeDir.path;
  const kubeconfig = options.withoutKube
    ? undefined
    : await writeKubeconfig({
        server: double.url,
        token: "double-sa-token",
        contexts: options.contexts ?? ["main", "staging"],
        dir: home,
      });
  const env: Record<string, string> = {
    SVC_OUTPUT_ROOT: outputRoot,
    SVC_API_TOKEN: TEST_TOKEN,
    SVC_RUNNER_IMAGE: "registry.example/svc/runner:1.0.0",
    SVC_APP_FULLNAME: "svc-preflight",
    SVC_RUNNER_SERVICE_ACCOUNT: "svc-runner",
    SVC_DATA_CLAIM: "audit-data",
    SVC_ENTITLEMENT_URL: "https://entitlement.example",
    POD_NAMESPACE: "svc",
    ...(kubeconfig ? { KUBECONFIG: kubeconfig } : {}),
    ...options.env,
  };
  const config = loadConfig(env, {
    fileExists: (path) => path === kubeconfig,
    readTextFile: () => undefined,
    homeDir: home,
  });
  const kube =
    config.kube.mode === "none"
      ? null
      : createClientNodeGateway(config.kube as { mode: "kubeconfig"; path: string });
  const app = createApp({ config, kube });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    app,
    config,
    double,
    baseUrl,
    outputRoot,
    call: (path, init = {}) =>
      fetch(`${baseUrl}${path}`, {
        ...init,
        headers: {
          authorization: `Bearer ${TEST_TOKEN}`,
          ...(init.headers as Record<string, string> | undefined),
        },
      }),
    close: async () => {
      await app.close();
      await double.close();
      await Promise.all([outputDir.remove(), homeDir.remove()]);
    },
  };
}

/** JSON POST with the bearer token. */
export function jsonPost(body: unknown): RequestInit {
  return { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
}
