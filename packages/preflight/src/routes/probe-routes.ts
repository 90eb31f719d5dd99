import type { FastifyInstance } from "fastify";
import { buildModuleRegistry } from "../modules/module-registry.ts";
import type { RouteContext } from "../route-context.ts";

const AUTH_DISABLED_WARNING =
  "AUTH DISABLED: SVC_AUTH_DISABLED=true, every endpoint (Job launch, pod listing, output download) is open to anyone who can reach this service";

/** Names of the settings `POST /api/pipeline/run` needs that are missing (spec §4.2 rule 1). */
export function missingPipelineSettings(context: RouteContext): string[] {
  const missing: string[] = [];
  if (!context.config.runnerImage) missing.push("SVC_RUNNER_IMAGE");
  if (!context.config.appFullname) missing.push("SVC_APP_FULLNAME");
  return missing;
}

/** The three open endpoints (spec §5.2 rule 2): health, config, module registry. */
export function registerProbeRoutes(app: FastifyInstance, context: RouteContext): void {
  const { config } = context;

  app.get("/api/health", async () => ({ status: "ok", service: "svc-preflight", version: config.version }));

  // Runtime wiring for operators; never a token, only whether auth is on.
  app.get("/api/config", async () => {
    const missing = missingPipelineSettings(context);
    return {
      service: "svc-preflight",
      version: config.version,
      inCluster: context.kube?.inCluster ?? false,
      kubernetes: {
        configured: context.kube !== null,
        source: config.kube.mode,
        ...(config.kube.mode === "none" ? { reason: config.kube.reason } : {}),
        contexts: context.kube?.listContexts() ?? [],
      },
      storage: { mode: config.storageMode, outputRoot: config.outputRoot },
      runner: {
        image: config.runnerImage,
        imageGpu: config.runnerImageGpu,
        command: config.runnerCommand,
        serviceAccount: config.runnerServiceAccount,
        appFullname: config.appFullname,
        dataClaim: config.appFullname ? `${config.appFullname}-data` : null,
        gpuNodeSelector: config.gpuNodeSelector,
        pipelineLaunchReady: missing.length === 0,
        missingSettings: missing,
      },
      namespaces: { own: config.ownNamespace, allowed: config.allowedNamespaces },
      auth: config.authDisabled
        ? { enabled: false, warning: AUTH_DISABLED_WARNING }
        : { enabled: true, scheme: "Bearer" },
      warnings: config.authDisabled ? [AUTH_DISABLED_WARNING] : [],
    };
  });

  app.get("/api/modules", async () => ({
    modules: buildModuleRegistry(config).map(({ smokeArgv: _argv, ...entry }) => entry),
  }));
}
