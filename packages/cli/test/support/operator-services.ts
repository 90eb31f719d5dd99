import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  devIssuerUrl,
  loadOrCreateDevIssuerKey,
  mintDevToken,
  type RunningService,
  startService,
} from "@svc/entitlement";
import { createApp, createClientNodeGateway, loadConfig } from "@svc/preflight";
import { type KubeApiDouble, startKubeApiDouble, writeKubeconfig } from "@svc/testing";
import type { FastifyInstance } from "fastify";
import { runCli } from "../../src/program.ts";

/** The token the preflight service accepts in these tests. */
export const PREFLIGHT_TOKEN = "cli-test-preflight-token-0123456789";
/** The entitlement admin token in these tests. */
export const ADMIN_TOKEN = "cli-test-admin-token-0123456789abcdef";

/** Real services on loopback for the CLI tests: preflight against the Kubernetes API double, and entitlement (SQLite, dev issuer). */
export interface OperatorServices {
  root: string;
  outputRoot: string;
  kubeconfig: string;
  double: KubeApiDouble;
  preflight: FastifyInstance;
  preflightUrl: string;
  entitlement: RunningService;
  /** A dev-issuer ID token for `principal`, accepted by the entitlement service. */
  identityToken(principal: string): Promise<string>;
  close(): Promise<void>;
}

/** Starts both services; everything lives under one temp folder removed by `close`. */
export async function startOperatorServices(): Promise<OperatorServices> {
  const root = await mkdtemp(join(tmpdir(), "svc-cli-ops-"));
  const outputRoot = join(root, "output");
  const dataDir = join(root, "entitlement");
  await import("node:fs/promises").then((fs) => fs.mkdir(outputRoot, { recursive: true }));
  const double = await startKubeApiDouble({ token: "double-sa-token" });
  const kubeconfig = await writeKubeconfig({ server: double.url, token: "double-sa-token", dir: root });
  const config = loadConfig(
    {
      SVC_OUTPUT_ROOT: outputRoot,
      SVC_API_TOKEN: PREFLIGHT_TOKEN,
      SVC_RUNNER_IMAGE: "registry.example/svc/runner:1.0.0",
      SVC_APP_FULLNAME: "svc-preflight",
      SVC_RUNNER_SERVICE_ACCOUNT: "svc-runner",
      SVC_DATA_CLAIM: "audit-data",
      SVC_ENTITLEMENT_URL: "https://entitlement.example",
      POD_NAMESPACE: "svc",
      KUBECONFIG: kubeconfig,
    },
    { fileExists: (path) => path === kubeconfig, readTextFile: () => undefined, homeDir: root },
  );
  const preflight = createApp({
    config,
    kube: createClientNodeGateway(config.kube as { mode: "kubeconfig"; path: string }),
  });
  await preflight.listen({ port: 0, host: "127.0.0.1" });
  const address = preflight.server.address();
  const preflightUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  const entitlement = await startService({
    PORT: "0",
    HOST: "127.0.0.1",
    SVC_DATA_DIR: dataDir,
    SVC_ADMIN_TOKENS: ADMIN_TOKEN,
    SVC_LOG_LEVEL: "silent",
  });
  const devKey = await loadOrCreateDevIssuerKey(dataDir);
  return {
    root,
    outputRoot,
    kubeconfig,
    double,
    preflight,
    preflightUrl,
    entitlement,
    identityToken: (principal) =>
      mintDevToken({
        key: devKey,
        issuer: devIssuerUrl(entitlement.url),
        audience: entitlement.url,
        principal,
      }),
    async close() {
      await preflight.close();
      await entitlement.close();
      await double.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** What one `svc` invocation printed and returned. */
export interface SvcResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `svc` in this process (same code path as the bin) and captures its output. */
export async function svc(...argv: string[]): Promise<SvcResult> {
  let stdout = "";
  let stderr = "";
  const code = await runCli(
    argv,
    {
      stdout: (text) => {
        stdout += text;
      },
      stderr: (text) => {
        stderr += text;
      },
    },
    // The tests set XDG_CONFIG_HOME and friends on this process, as a shell would for the bin.
    process.env,
  );
  return { code, stdout, stderr };
}
