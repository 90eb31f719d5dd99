import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import {
  closeGracefully,
  createLoggerOptions,
  runService,
  SERVICE_PROCESS,
  type ServiceParts,
} from "@svc/http-edge";
import type { FastifyInstance } from "fastify";
import { createApp } from "./app.ts";
import { ConfigError, loadConfig, type PreflightConfig } from "./config.ts";
import { createClientNodeGateway } from "./kube/client-node-gateway.ts";
import type { KubeGateway } from "./kube/kube-gateway.ts";

function readVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
      version?: string;
    };
    return pkg.version ?? "0.0.0";
  } catch {
    return "0.0.0";
  }
}

function buildKube(config: PreflightConfig): KubeGateway | null {
  if (config.kube.mode === "none") return null;
  try {
    return createClientNodeGateway(config.kube);
  } catch (error) {
    const where =
      config.kube.mode === "kubeconfig" ? `kubeconfig ${config.kube.path}` : "in-cluster configuration";
    throw new ConfigError([`cannot load the ${where}: ${(error as Error).message}`], { cause: error });
  }
}

/** The preflight service's start-up parts, run by http-edge's one runService (issue 41 item 3). */
export const PREFLIGHT_SERVICE: ServiceParts<PreflightConfig, { readonly app: FastifyInstance }> = {
  name: "svc-preflight",
  readConfig: (env) =>
    loadConfig(
      env,
      {
        fileExists: (path) => existsSync(path),
        readTextFile: (path) => (existsSync(path) ? readFileSync(path, "utf8") : undefined),
        homeDir: homedir(),
      },
      readVersion(),
    ),
  async build(config) {
    const kube = buildKube(config);
    const app = createApp({ config, kube, logger: createLoggerOptions(config.logLevel) });
    if (config.authDisabled) app.log.warn("AUTH DISABLED (SVC_AUTH_DISABLED=true): every endpoint is open");
    if (!kube)
      app.log.warn(
        `Kubernetes not configured (${config.kube.mode === "none" ? config.kube.reason : ""}); Kubernetes endpoints answer 503`,
      );
    return { app };
  },
  where: (config) => `${config.host}:${config.port}`,
  async listen({ app }, config) {
    await app.listen({ port: config.port, host: config.host });
  },
  // new requests get 503 SHUTTING_DOWN, in-flight ones finish, what is left after 10 s is cut
  close: ({ app }) => closeGracefully(app, 10_000),
};

/**
 * Reads the configuration once, builds the real dependencies and listens (ARCHITECTURE.md
 * convention 2), through http-edge's one runService: a refused configuration or port is one
 * message and exit 2; SIGTERM/SIGINT drain. Returns the running app, or undefined after a refusal.
 */
export async function main(env: NodeJS.ProcessEnv = process.env): Promise<FastifyInstance | undefined> {
  return (await runService(PREFLIGHT_SERVICE, { ...SERVICE_PROCESS, env }))?.app;
}
