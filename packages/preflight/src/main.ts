import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { closeGracefully, createLoggerOptions, describeListenProblem } from "@svc/http-edge";
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

/**
 * Reads the configuration once, builds the real dependencies and listens (ARCHITECTURE.md
 * convention 2). Returns the running app, or undefined after reporting a configuration error
 * (exit code 2).
 */
export async function main(env: NodeJS.ProcessEnv = process.env): Promise<FastifyInstance | undefined> {
  let config: PreflightConfig;
  let kube: KubeGateway | null;
  try {
    config = loadConfig(
      env,
      {
        fileExists: (path) => existsSync(path),
        readTextFile: (path) => (existsSync(path) ? readFileSync(path, "utf8") : undefined),
        homeDir: homedir(),
      },
      readVersion(),
    );
    kube = buildKube(config);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exitCode = 2;
    return undefined;
  }
  const app = createApp({ config, kube, logger: createLoggerOptions(config.logLevel) });
  if (config.authDisabled) app.log.warn("AUTH DISABLED (SVC_AUTH_DISABLED=true): every endpoint is open");
  if (!kube)
    app.log.warn(
      `Kubernetes not configured (${config.kube.mode === "none" ? config.kube.reason : ""}); Kubernetes endpoints answer 503`,
    );
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      app.log.info(`${signal}: closing`);
      // new requests get 503 SHUTTING_DOWN, in-flight ones finish, what is left after 10 s is cut
      void closeGracefully(app, 10_000);
    });
  }
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    const problem = describeListenProblem(error, "svc-preflight", `${config.host}:${config.port}`);
    if (problem === null) throw error;
    await app.close();
    console.error(problem);
    process.exitCode = 1;
    return undefined;
  }
  return app;
}
